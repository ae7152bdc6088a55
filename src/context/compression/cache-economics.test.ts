import { describe, expect, it } from "vitest";
import { estimateRemainingCalls, isCacheCold, worthCompacting } from "./cache-economics.js";
import { createCompactionBreaker } from "./compaction-breaker.js";

describe("cache economics", () => {
  const base = { freedTokens: 30_000, suffixTokens: 60_000, cachedPriceRatio: 0.1, cacheCold: false };

  it("compacts a warm cache only when the savings over the remaining calls beat the rebuild", () => {
    // rebuild: 0.9 × 30k = 27k; savings: R × 0.1 × 30k = 3k per call.
    expect(worthCompacting({ ...base, remainingCalls: 9 })).toBe(false);
    expect(worthCompacting({ ...base, remainingCalls: 10 })).toBe(true);
  });

  it("always compacts a cold cache that frees something", () => {
    expect(worthCompacting({ ...base, remainingCalls: 1, cacheCold: true })).toBe(true);
    expect(worthCompacting({ ...base, freedTokens: 0, remainingCalls: 50, cacheCold: true })).toBe(false);
  });

  it("calls a cache cold after its time-to-live and estimates remaining calls from calls so far", () => {
    const now = new Date("2026-01-01T00:10:00Z");
    expect(isCacheCold(now, new Date("2026-01-01T00:04:00Z"), 5 * 60_000)).toBe(true);
    expect(isCacheCold(now, new Date("2026-01-01T00:06:00Z"), 5 * 60_000)).toBe(false);
    expect(isCacheCold(now, undefined, 5 * 60_000)).toBe(false);
    expect([0, 7, 500].map((calls) => estimateRemainingCalls(calls))).toEqual([1, 7, 50]);
    // 20 calls grew the context to 20k (1k a call): the trigger at 24k is 4 calls away.
    expect(estimateRemainingCalls(20, 20_000, 24_000)).toBe(4);
  });
});

describe("the compaction circuit breaker", () => {
  it("opens after three consecutive failures and resets after a compaction that worked", () => {
    const breaker = createCompactionBreaker(3);
    breaker.record(false);
    breaker.record(true);
    breaker.observe(90_000, 80_000); // the next prompt was still over the trigger
    expect(breaker.failures).toBe(2);
    breaker.record(true);
    breaker.observe(40_000, 80_000);
    expect(breaker.failures).toBe(0);
    for (let attempt = 0; attempt < 3; attempt += 1) breaker.record(false);
    expect(() => breaker.assertClosed()).toThrow(expect.objectContaining({ code: "compaction_failed" }));
  });
});
