import type { ServerContextEdit, Usage } from "../../types/index.js";
import type { AnthropicUsage, AnthropicUsageIteration } from "./anthropic-wire-types.js";

/**
 * Anthropic's `input_tokens` counts only the uncached part of the prompt: "the number of input tokens
 * which were used … after the last cache breakpoint" (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching).
 * ctxkit's `inputTokens` is the whole prompt, so the cache reads and writes are added back.
 *
 * With server-side compaction the top-level counts are only the answer's pass; `usage.iterations`
 * lists every pass and the bill is their sum ("the top-level usage … does not include compaction
 * iterations", Anthropic's compaction guide). So with iterations the counts are summed over them,
 * and the compaction passes are reported apart in `serverContext`. `appliedEdits` are
 * `context_management.applied_edits` from the same response (cleared tool uses and thinking).
 */
export function convertAnthropicUsage(usage: AnthropicUsage, appliedEdits: readonly Record<string, unknown>[] = []): Usage {
  const iterations = Array.isArray(usage.iterations) && usage.iterations.length > 0 ? usage.iterations : undefined;
  const passes: AnthropicUsageIteration[] = iterations ?? [usage];
  const sum = (key: "input_tokens" | "output_tokens" | "cache_read_input_tokens" | "cache_creation_input_tokens", of = passes) =>
    of.reduce((total, pass) => total + (typeof pass[key] === "number" ? pass[key] : 0), 0);
  const cacheRead = sum("cache_read_input_tokens");
  const cacheWrite = sum("cache_creation_input_tokens");
  const converted: Usage = {
    inputTokens: sum("input_tokens") + cacheRead + cacheWrite,
    cachedInputTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: sum("output_tokens"),
    // Anthropic bills thinking as output tokens and does not report it separately.
    reasoningTokens: 0,
  };
  const oneHour = usage.cache_creation?.ephemeral_1h_input_tokens;
  if (typeof oneHour === "number" && oneHour > 0) converted.cacheWrite1hTokens = Math.min(oneHour, cacheWrite);
  const compactions = (iterations ?? []).filter((pass) => pass.type === "compaction");
  const edits: ServerContextEdit[] = [
    ...appliedEdits.map((edit) => ({
      type: typeof edit.type === "string" ? edit.type : "unknown",
      ...(typeof edit.cleared_input_tokens === "number" ? { clearedInputTokens: edit.cleared_input_tokens } : {}),
    })),
    ...compactions.map(() => ({ type: "compaction" })),
  ];
  if (edits.length > 0) {
    const compactionInput = sum("input_tokens", compactions) + sum("cache_read_input_tokens", compactions) + sum("cache_creation_input_tokens", compactions);
    converted.serverContext = { compactionInputTokens: compactionInput, compactionOutputTokens: sum("output_tokens", compactions), edits };
  }
  return converted;
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
  if (delta.cache_creation) merged.cache_creation = delta.cache_creation;
  if (Array.isArray(delta.iterations)) merged.iterations = delta.iterations;
  return merged;
}
