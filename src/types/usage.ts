/**
 * Token usage of one model call. `inputTokens` is the whole prompt (cached and uncached);
 * `cachedInputTokens` the part served from the provider's prompt cache; `cacheWriteTokens` the part
 * written to it (Anthropic bills those at a premium). Providers that do not report a number leave it 0.
 */
export interface Usage {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Milliseconds from sending the request to the first streamed token, when streaming. */
  timeToFirstTokenMs?: number;
  /** Milliseconds from sending the request to the end of the response. */
  latencyMs?: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 };
}

/** Sums token counts; timings are not additive and are dropped. */
export function addUsage(total: Usage, next: Usage): Usage {
  return {
    inputTokens: total.inputTokens + next.inputTokens,
    cachedInputTokens: total.cachedInputTokens + next.cachedInputTokens,
    cacheWriteTokens: total.cacheWriteTokens + next.cacheWriteTokens,
    outputTokens: total.outputTokens + next.outputTokens,
    reasoningTokens: total.reasoningTokens + next.reasoningTokens,
  };
}
