import { emptyUsage, type Usage } from "../../types/index.js";

/**
 * Reads a Chat Completions `usage` object. Vendors report cached prompt tokens in different
 * places (see vendor-profiles.ts); every known field is read, so a proxy or a new vendor that
 * reuses another's shape still counts. Missing or malformed numbers count as 0.
 * - `prompt_tokens_details.cached_tokens`: OpenAI, vLLM, llama.cpp, GLM, OpenRouter
 * - `prompt_cache_hit_tokens` (+ `prompt_cache_miss_tokens`): DeepSeek
 * - `cached_tokens` at the top of `usage`: Kimi
 * - `timings.cache_n` next to `usage`: llama-server. Its `usage` has no cached count (builds b6510 and
 *   b7634 were recorded sending only prompt/completion/total); `prompt_tokens` = `cache_n` + `prompt_n`.
 * Cache writes: `prompt_tokens_details.cache_write_tokens` (OpenRouter, for upstreams that bill them),
 * and LiteLLM's `cache_creation_input_tokens` at the top of `usage` (with `prompt_tokens_details.cache_creation_tokens`
 * beside it) for Anthropic or Bedrock behind its proxy, counted inside `prompt_tokens` like the cached part.
 * LiteLLM builds before that left both out of `prompt_tokens` (BerriAI/litellm#5285: 194 prompt
 * tokens beside 9,474 written); when the cache counts exceed it, they are added to it.
 */
export function convertOpenAIUsage(raw: unknown, rawTimings?: unknown): Usage {
  const usage = emptyUsage();
  const timings = isRecord(rawTimings) ? rawTimings : {};
  if (!isRecord(raw)) return isRecord(rawTimings) ? usageFromTimings(timings) : usage;
  const promptDetails = isRecord(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const completionDetails = isRecord(raw.completion_tokens_details) ? raw.completion_tokens_details : {};

  const cacheHit = count(raw.prompt_cache_hit_tokens);
  const cacheMiss = count(raw.prompt_cache_miss_tokens);
  // DeepSeek documents prompt_tokens = prompt_cache_hit_tokens + prompt_cache_miss_tokens.
  const promptTokens = count(raw.prompt_tokens) || cacheHit + cacheMiss;
  // LiteLLM also sends Anthropic's `cache_read_input_tokens`, always equal to its `cached_tokens`.
  usage.cachedInputTokens = Math.max(count(promptDetails.cached_tokens), cacheHit, count(raw.cached_tokens), count(timings.cache_n), count(raw.cache_read_input_tokens));
  usage.cacheWriteTokens = Math.max(count(promptDetails.cache_write_tokens), count(promptDetails.cache_creation_tokens), count(raw.cache_creation_input_tokens));
  const cacheTokens = usage.cachedInputTokens + usage.cacheWriteTokens;
  usage.inputTokens = cacheTokens > promptTokens ? promptTokens + cacheTokens : promptTokens;
  usage.outputTokens = count(raw.completion_tokens);
  usage.reasoningTokens = count(completionDetails.reasoning_tokens);
  return usage;
}

/** A llama-server stream without a `usage` object (no `stream_options.include_usage` support): its timings alone. */
function usageFromTimings(timings: Record<string, unknown>): Usage {
  const usage = emptyUsage();
  usage.cachedInputTokens = count(timings.cache_n);
  usage.inputTokens = usage.cachedInputTokens + count(timings.prompt_n);
  usage.outputTokens = count(timings.predicted_n);
  return usage;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
