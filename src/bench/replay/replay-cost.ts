import type { ModelPricing } from "../../tokens/pricing.js";

export interface CallTokens {
  /** Prompt tokens the cache could not serve. */
  uncachedTokens: number;
  /** Prompt tokens served from the prefix cache. */
  reusablePrefixTokens: number;
  outputTokens: number;
}

/**
 * USD of one replayed call: the reusable prefix at the cache-read price, the rest at the input
 * price — or, for providers with explicit cache writes (Anthropic), at the write price, since a
 * harness that caches puts a breakpoint at the end of every request and so writes everything new.
 * Output is priced too (the same for every policy, as the recorded turns are kept), so the total
 * is what the run would have cost.
 */
export function callCost(tokens: CallTokens, pricing: ModelPricing): number {
  const uncachedPrice = pricing.cacheWrite ?? pricing.input;
  return (tokens.uncachedTokens * uncachedPrice + tokens.reusablePrefixTokens * pricing.cacheRead + tokens.outputTokens * pricing.output) / 1_000_000;
}
