import type { Usage } from "../../types/index.js";
import type { ResponsesUsage } from "./responses-wire-types.js";

/**
 * Responses usage in ctxkit's terms. `input_tokens` already includes the cached part
 * (`input_tokens_details.cached_tokens`), as ctxkit's `inputTokens` does; OpenAI bills no cache
 * writes, so `cacheWriteTokens` stays 0. Missing or non-numeric counts read as 0.
 */
export function convertResponsesUsage(usage: ResponsesUsage | undefined | null): Usage {
  return {
    inputTokens: count(usage?.input_tokens),
    cachedInputTokens: count(usage?.input_tokens_details?.cached_tokens),
    cacheWriteTokens: 0,
    outputTokens: count(usage?.output_tokens),
    reasoningTokens: count(usage?.output_tokens_details?.reasoning_tokens),
  };
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;
}
