/**
 * Whether a lossy compaction pays for itself, in units of one uncached input token.
 *
 * A prompt cache serves the unchanged prefix at a fraction α of the input price (α ≈ 0.1 for
 * Anthropic reads and OpenAI cached input). A compaction that frees F tokens and first changes the
 * context S tokens before its end:
 *   - costs a cache rebuild: the S − F tokens after the change are sent uncached once, instead of
 *     cached: (1 − α)(S − F);
 *   - saves α·F on each of the R calls still to come (F would otherwise be re-read from the cache).
 * So it pays when R·α·F > (1 − α)(S − F). When the cache is cold anyway (idle longer than its
 * time-to-live), the rebuild costs nothing extra, so any compaction that frees enough is worth it.
 * Above the trigger there is no choice — the alternative is an overflow — so this decides only
 * early, optional compactions.
 */
export interface CompactionEconomics {
  /** Tokens the compaction removes. */
  freedTokens: number;
  /** Tokens from the first changed message to the end of the context (before the compaction). */
  suffixTokens: number;
  /** Calls expected after this one. */
  remainingCalls: number;
  /** Cached price ÷ uncached price. */
  cachedPriceRatio: number;
  cacheCold: boolean;
}

export function worthCompacting(economics: CompactionEconomics): boolean {
  const { freedTokens, suffixTokens, remainingCalls, cachedPriceRatio: alpha, cacheCold } = economics;
  if (freedTokens <= 0) return false;
  if (cacheCold) return true;
  const rebuildCost = (1 - alpha) * Math.max(0, suffixTokens - freedTokens);
  const savings = remainingCalls * alpha * freedTokens;
  return savings > rebuildCost;
}

/** Idle longer than the cache's time-to-live: the provider has dropped the prefix already. */
export function isCacheCold(now: Date, lastRequestAt: Date | undefined, cacheTtlMs: number): boolean {
  return lastRequestAt !== undefined && now.getTime() - lastRequestAt.getTime() > cacheTtlMs;
}

/**
 * Calls over which an early compaction saves anything: the calls still to come (estimated as the
 * calls made so far: a run that has lasted N calls is as likely to last N more), but no more than
 * the calls until the context would reach the trigger anyway (at its average growth per call so
 * far) — from then on a compaction is forced, early or not. At least 1, at most 50.
 */
export function estimateRemainingCalls(callsSoFar: number, tokens = 0, triggerTokens = Number.POSITIVE_INFINITY): number {
  const growthPerCall = tokens / Math.max(1, callsSoFar);
  const untilTrigger = growthPerCall > 0 ? Math.ceil((triggerTokens - tokens) / growthPerCall) : Number.POSITIVE_INFINITY;
  return Math.min(50, Math.max(1, Math.min(callsSoFar, untilTrigger)));
}
