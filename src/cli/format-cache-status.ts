import { duration } from "../context/cache-miss/explain-cache-miss.js";
import { findModelPricing } from "../tokens/pricing.js";
import type { CacheMiss } from "../types/index.js";

export interface CacheStatus {
  /** The provider's cache lifetime (`Provider.cacheLifetimeMs`), when it says. */
  lifetimeMs?: number;
  /** The cache key in force (`--cache-key`, else the session id), for providers that send one. */
  key?: string;
  /** Each miss of this chat with the number of the call it happened on (1 = the first call). */
  misses: ReadonlyArray<{ call: number; miss: CacheMiss }>;
  model?: string;
}

/**
 * The lines `/usage` adds about the prompt cache: the lifetime and key in force, and why each miss
 * happened with what it re-billed (what the call paid for the tokens the cache could have served,
 * less what reads of them would have cost).
 */
export function formatCacheStatus(status: CacheStatus): string {
  const lifetime = status.lifetimeMs === undefined ? "lifetime not stated by the provider" : `lifetime ${duration(status.lifetimeMs)}`;
  const lines = [`prompt cache: ${lifetime}${status.key === undefined ? "" : `, key ${status.key}`}`];
  if (status.misses.length === 0) {
    lines.push("cache misses: none");
    return lines.join("\n");
  }
  const pricing = status.model === undefined ? undefined : findModelPricing(status.model);
  const priced = status.misses.map(({ call, miss }) => {
    const usd = miss.rebilledUsd ?? (pricing === undefined ? undefined : (Math.max(0, pricing.input - pricing.cacheRead) * miss.missedTokens) / 1_000_000);
    return { call, miss, usd };
  });
  const total = priced.every((item) => item.usd !== undefined) ? priced.reduce((sum, item) => sum + item.usd!, 0) : undefined;
  lines.push(`cache misses: ${priced.length}${total === undefined ? "" : `, $${total.toFixed(4)} re-billed`}`);
  for (const { call, miss, usd } of priced) lines.push(`  call ${call}: ${miss.summary}${miss.rebilledUsd === undefined && usd !== undefined ? ` ($${usd.toFixed(4)})` : ""}`);
  return lines.join("\n");
}
