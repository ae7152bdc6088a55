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
  /** The part of `cacheWriteTokens` written with a 1-hour lifetime (Anthropic `ttl: "1h"`, billed at 2× input). */
  cacheWrite1hTokens?: number;
  /** What the provider did to the context on its own side during this call (see `ServerContextUsage`). */
  serverContext?: ServerContextUsage;
  /** Milliseconds from sending the request to the first streamed token, when streaming. */
  timeToFirstTokenMs?: number;
  /** Milliseconds from sending the request to the end of the response. */
  latencyMs?: number;
}

/**
 * Server-side context management seen in one call: the tokens the server spent on its own summary
 * (Anthropic's `usage.iterations` of type `compaction`, which the top-level counts leave out; they
 * are already added to `inputTokens` / `outputTokens` so a ledger bills them), and the edits it
 * applied (`context_management.applied_edits`, a compaction). Each edit changes the prompt the
 * server caches: the next call cannot reuse the cache from before it — a declared break, made by the server.
 */
export interface ServerContextUsage {
  compactionInputTokens: number;
  compactionOutputTokens: number;
  /** e.g. `{ type: "clear_tool_uses_20250919", clearedInputTokens: 50000 }` or `{ type: "compaction" }`. */
  edits: ServerContextEdit[];
}

export interface ServerContextEdit {
  type: string;
  clearedInputTokens?: number;
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
    ...(total.cacheWrite1hTokens === undefined && next.cacheWrite1hTokens === undefined ? {} : { cacheWrite1hTokens: (total.cacheWrite1hTokens ?? 0) + (next.cacheWrite1hTokens ?? 0) }),
  };
}
