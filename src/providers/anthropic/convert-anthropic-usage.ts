import type { Usage } from "../../types/index.js";
import type { AnthropicUsage } from "./anthropic-wire-types.js";

/**
 * Anthropic's `input_tokens` counts only the uncached part of the prompt: "the number of input tokens
 * which were used … after the last cache breakpoint" (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching).
 * ctxkit's `inputTokens` is the whole prompt, so the cache reads and writes are added back.
 */
export function convertAnthropicUsage(usage: AnthropicUsage): Usage {
  const uncached = usage.input_tokens ?? 0;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: uncached + cacheRead + cacheWrite,
    cachedInputTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: usage.output_tokens ?? 0,
    // Anthropic bills thinking as output tokens and does not report it separately.
    reasoningTokens: 0,
  };
}

/**
 * `message_delta.usage` is cumulative and, in newer API versions, repeats the input counts; a field it
 * leaves out (or sends as null) keeps the value from `message_start`.
 */
export function mergeAnthropicUsage(start: AnthropicUsage, delta: AnthropicUsage): AnthropicUsage {
  const merged: AnthropicUsage = { ...start };
  for (const key of ["input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"] as const) {
    const value = delta[key];
    if (typeof value === "number") merged[key] = value;
  }
  return merged;
}
