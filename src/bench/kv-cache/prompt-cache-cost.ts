import type { ModelPricing } from "../../session/pricing.js";

/** One model call as the benchmark measured it. */
export interface MeasuredCall {
  promptTokens: number;
  /** Token-level common prefix with the previous call of the same dialogue. */
  reusablePrefixTokens: number;
  /** The part of it made of whole messages (system + tools count as one message). */
  wholeMessageReusableTokens: number;
}

// Both vendors' documented minimum: shorter prompts are never cached
// (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching,
// https://platform.openai.com/docs/guides/prompt-caching).
export const minimumCacheableTokens = 1024;
// "Cache hits occur in increments of 128 tokens after the first 1,024" (OpenAI's prompt caching guide).
export const openAICacheStep = 128;

/** Tokens OpenAI reports as cached: the reusable prefix in 128-token steps, nothing below 1,024. */
export function openAICachedTokens(reusablePrefixTokens: number): number {
  if (reusablePrefixTokens < minimumCacheableTokens) return 0;
  return Math.floor(reusablePrefixTokens / openAICacheStep) * openAICacheStep;
}

/** Prompt-side cost in USD under automatic caching: cached tokens at the cached price, the rest at input. */
export function openAIPromptCost(call: MeasuredCall, pricing: ModelPricing): number {
  const cached = openAICachedTokens(call.reusablePrefixTokens);
  return (cached * pricing.cacheRead + (call.promptTokens - cached) * pricing.input) / 1_000_000;
}

/**
 * Tokens Anthropic serves from its cache. Its cache is keyed on content blocks up to a
 * `cache_control` breakpoint, so reuse ends at the last whole message both calls share — a
 * token-level common prefix inside a changed message (a profile block, a flattened history that
 * grew) is not read back. ctxkit's layout puts breakpoints after the system/tools prefix and on the
 * last trajectory message, so every whole shared message was written by some earlier call.
 */
export function anthropicCacheReadTokens(call: MeasuredCall): number {
  if (call.promptTokens < minimumCacheableTokens || call.wholeMessageReusableTokens < minimumCacheableTokens) return 0;
  return call.wholeMessageReusableTokens;
}

/**
 * Prompt-side cost in USD under explicit caching with ctxkit's breakpoints: reads at the cache-read
 * price (0.1× input), and everything else written to the cache at the 5-minute write price
 * (1.25× input), because the breakpoint on the last message covers all new tokens. A prompt below
 * the minimum is neither read nor written: plain input price.
 */
export function anthropicPromptCost(call: MeasuredCall, pricing: ModelPricing): number {
  if (call.promptTokens < minimumCacheableTokens) return (call.promptTokens * pricing.input) / 1_000_000;
  const read = anthropicCacheReadTokens(call);
  const writePrice = pricing.cacheWrite ?? pricing.input * 1.25;
  return (read * pricing.cacheRead + (call.promptTokens - read) * writePrice) / 1_000_000;
}
