/**
 * What a provider's prompt cache would serve for one call, given the tokens of the call's prompt
 * that repeat the previous call's prompt (the reusable prefix, as ctxkit computes it). Pure
 * functions: used to price transcripts that do not record cached tokens, and to tell how much a run
 * would cost on another provider.
 */

/** The catalog's cache rule names. */
export type CacheRuleName =
  | "openai-automatic"
  | "anthropic-explicit"
  | "deepseek-automatic"
  | "kimi-automatic"
  | "glm-automatic"
  | "gemini-implicit"
  | "local-prefix-reuse"
  | "none";

export const CACHE_RULE_NAMES: readonly CacheRuleName[] = [
  "openai-automatic",
  "anthropic-explicit",
  "deepseek-automatic",
  "kimi-automatic",
  "glm-automatic",
  "gemini-implicit",
  "local-prefix-reuse",
  "none",
];

export interface CacheRuleInput {
  /** Tokens of the whole prompt, tail included. */
  promptTokens: number;
  /** Tokens at the start of the prompt identical to the previous call's prompt. */
  reusablePrefixTokens: number;
  /**
   * Tokens of the tail (the status message after the last trajectory message). Only explicit caches
   * care: ctxkit puts the last breakpoint before it, so it is neither read nor written. Default 0.
   */
  tailTokens?: number;
}

export interface CacheOutcome {
  /** Prompt tokens billed at the cache-read price. */
  cachedTokens: number;
  /** Prompt tokens billed at the cache-write price (explicit caches only). */
  cacheWriteTokens: number;
}

/** Automatic caches: a minimum prefix and the granularity the cached length is rounded down to. */
interface AutomaticRule {
  minimumTokens: number;
  stepTokens: number;
}

const automaticRules: Partial<Record<CacheRuleName, AutomaticRule>> = {
  // "Caching is enabled automatically for prompts that are 1024 tokens or longer … cache hits occur in
  // increments of 128 tokens" (OpenAI prompt-caching guide).
  "openai-automatic": { minimumTokens: 1024, stepTokens: 128 },
  // DeepSeek's disk cache stores prefixes in 64-token units; Kimi's and GLM's automatic caches behave
  // the same way as far as their usage numbers show, so they share the rule.
  "deepseek-automatic": { minimumTokens: 64, stepTokens: 64 },
  "kimi-automatic": { minimumTokens: 64, stepTokens: 64 },
  "glm-automatic": { minimumTokens: 64, stepTokens: 64 },
  // Gemini's implicit cache needs 1,024 tokens (Flash) to 4,096 (older Pro models); its granularity
  // is not documented. An approximation: all of the prefix once it reaches 1,024 tokens.
  "gemini-implicit": { minimumTokens: 1024, stepTokens: 1 },
  // vLLM's automatic prefix caching and llama.cpp's slot reuse keep the whole common prefix.
  "local-prefix-reuse": { minimumTokens: 0, stepTokens: 1 },
};

/** Anthropic's minimum cacheable prompt (1,024 tokens for Sonnet and Opus; Haiku needs 2,048). */
export const ANTHROPIC_MINIMUM_CACHEABLE_TOKENS = 1024;

/** Reads a rule name from a catalog entry; unknown names are treated as no caching. */
export function toCacheRuleName(name: string | undefined): CacheRuleName {
  return CACHE_RULE_NAMES.includes(name as CacheRuleName) ? (name as CacheRuleName) : "none";
}

/**
 * The tokens a provider with this rule would read from (and write to) its cache for one call.
 * - Automatic caches serve the reusable prefix rounded down to their step, once it reaches their
 *   minimum: OpenAI gives 0 below 1,024 tokens, then floor(reusable / 128) × 128.
 * - Anthropic caches only up to `cache_control` breakpoints. With ctxkit's layout (breakpoints after
 *   the stable prefix and on the last trajectory message, never on the tail) a call reads the
 *   previous call's body — the reusable prefix — and writes everything new up to its own last
 *   trajectory message, so the next call can read it. A prefix under the minimum is neither.
 */
export function applyCacheRule(rule: CacheRuleName, input: CacheRuleInput): CacheOutcome {
  const reusable = Math.max(0, Math.min(input.reusablePrefixTokens, input.promptTokens));
  if (rule === "anthropic-explicit") {
    const body = Math.max(0, input.promptTokens - (input.tailTokens ?? 0));
    const cachedTokens = reusable >= ANTHROPIC_MINIMUM_CACHEABLE_TOKENS ? Math.min(reusable, body) : 0;
    const cacheWriteTokens = body >= ANTHROPIC_MINIMUM_CACHEABLE_TOKENS ? body - cachedTokens : 0;
    return { cachedTokens, cacheWriteTokens };
  }
  const automatic = automaticRules[rule];
  if (automatic === undefined || reusable < automatic.minimumTokens) return { cachedTokens: 0, cacheWriteTokens: 0 };
  return { cachedTokens: Math.floor(reusable / automatic.stepTokens) * automatic.stepTokens, cacheWriteTokens: 0 };
}
