import type { ReportedUsage } from "../imported-transcript.js";
import { isRecord, optionalCount, withoutUndefined } from "./json-guards.js";

/**
 * Reads a Chat Completions `usage` object as recorded. Unlike the provider's converter, a missing
 * field stays absent: inspect must tell "the provider reported 0 cached tokens" from "not recorded".
 * Vendors put cached tokens in different places:
 * - `prompt_tokens_details.cached_tokens`: OpenAI, vLLM, OpenRouter (which also adds `cost` and
 *   `prompt_tokens_details.cache_write_tokens`)
 * - `prompt_cache_hit_tokens` (+ `prompt_cache_miss_tokens`): DeepSeek
 * - `cached_tokens` at the top: Kimi
 * - `cache_read_input_tokens` / `cache_creation_input_tokens` next to them: LiteLLM for Anthropic
 *   models (OpenHands, mini-swe-agent), where `prompt_tokens` already includes both
 */
export function convertOpenAIReportedUsage(raw: unknown): ReportedUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const details = isRecord(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const hit = optionalCount(raw.prompt_cache_hit_tokens);
  const miss = optionalCount(raw.prompt_cache_miss_tokens);
  const usage = withoutUndefined<ReportedUsage>({
    promptTokens: optionalCount(raw.prompt_tokens) ?? (hit !== undefined && miss !== undefined ? hit + miss : undefined),
    cachedTokens: optionalCount(details.cached_tokens) ?? hit ?? optionalCount(raw.cached_tokens) ?? optionalCount(raw.cache_read_input_tokens),
    cacheWriteTokens: optionalCount(details.cache_write_tokens) ?? optionalCount(raw.cache_creation_input_tokens),
    completionTokens: optionalCount(raw.completion_tokens),
    cost: optionalCount(raw.cost),
  });
  return Object.keys(usage).length === 0 ? undefined : usage;
}
