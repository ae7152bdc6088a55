import { describe, expect, it } from "vitest";
import { defaultPricingCatalog } from "../tokens/pricing.js";
import { appendOnlyLimitTokens, buildUsageLedger, toLedgerCall } from "./usage-ledger.js";

describe("usage ledger", () => {
  it("the append-only limit reuses each previous prompt, capped at the current one", () => {
    expect(appendOnlyLimitTokens([])).toBe(0);
    expect(appendOnlyLimitTokens([1000])).toBe(0);
    expect(appendOnlyLimitTokens([1000, 1500, 2500])).toBe(2500);
    // A compaction shrank call 2: it can reuse at most its own 800 tokens.
    expect(appendOnlyLimitTokens([1000, 3000, 800, 1200])).toBe(1000 + 800 + 800);
  });

  it("totals cached share, cost with cache reads and writes, and the distance to the limit", () => {
    const sonnet = defaultPricingCatalog.models["claude-sonnet-4-5"]!;
    const ledger = buildUsageLedger(
      [
        { promptTokens: 2000, cachedTokens: 0, cacheWriteTokens: 2000, outputTokens: 100, timeToFirstTokenMs: 900, latencyMs: 2000 },
        { promptTokens: 3000, cachedTokens: 2000, cacheWriteTokens: 1000, outputTokens: 100, timeToFirstTokenMs: 300 },
        { promptTokens: 4000, cachedTokens: 1000, cacheWriteTokens: 0, outputTokens: 200, reasoningTokens: 50 },
      ],
      sonnet,
    );
    expect(ledger.totals).toMatchObject({
      calls: 3,
      promptTokens: 9000,
      cachedTokens: 3000,
      cacheWriteTokens: 3000,
      uncachedTokens: 3000,
      outputTokens: 400,
      reasoningTokens: 50,
      appendOnlyLimitTokens: 5000,
      gapToLimitTokens: 2000,
      meanTimeToFirstTokenMs: 600,
      meanLatencyMs: 2000,
    });
    expect(ledger.totals.cachedShare).toBeCloseTo(3000 / 9000, 12);
    expect(ledger.totals.appendOnlyLimitShare).toBeCloseTo(5000 / 9000, 12);
    expect(ledger.totals.gapToLimitShare).toBeCloseTo(2000 / 9000, 12);
    // 3,000 uncached × $3 + 3,000 reads × $0.30 + 3,000 writes × $3.75 + 400 output × $15, per million.
    expect(ledger.totals.cost!.total).toBeCloseTo((3000 * 3 + 3000 * 0.3 + 3000 * 3.75 + 400 * 15) / 1e6, 12);
    expect(ledger.calls[1]!.cost!.cacheRead).toBeCloseTo((2000 * 0.3) / 1e6, 12);
    expect(ledger.totals.reusablePrefixTokens).toBeUndefined();
  });

  it("has no cost without prices, and reads providers' usage", () => {
    const ledger = buildUsageLedger([toLedgerCall({ inputTokens: 100, cachedInputTokens: 40, cacheWriteTokens: 0, outputTokens: 5, reasoningTokens: 2 })]);
    expect(ledger.totals).toMatchObject({ promptTokens: 100, cachedTokens: 40, cachedShare: 0.4, reasoningTokens: 2, appendOnlyLimitShare: 0 });
    expect(ledger.totals.cost).toBeUndefined();
  });
});
