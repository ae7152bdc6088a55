import { describe, expect, it } from "vitest";
import { duration, explainCacheMiss, type CacheCallObservation } from "./explain-cache-miss.js";

const minute = 60_000;
const call = (overrides: Partial<CacheCallObservation> = {}): CacheCallObservation => ({ sentAtMs: 0, model: "gpt-5.1", reusableTokens: 20_000, cachedTokens: 20_000, lifetimeMs: 5 * minute, ...overrides });

describe("explainCacheMiss", () => {
  // Claude Sonnet 4.5: $3 per million input tokens, $0.30 per million cache reads.
  const pricing = { input: 3, cacheRead: 0.3 };

  it("says nothing for the first call, a full hit, or a shortfall within the cache's granularity", () => {
    expect(explainCacheMiss(undefined, call({ cachedTokens: 0 }))).toBeUndefined();
    expect(explainCacheMiss(call(), call({ sentAtMs: minute }))).toBeUndefined();
    expect(explainCacheMiss(call(), call({ sentAtMs: minute, cachedTokens: 19_500 }))).toBeUndefined();
  });

  it("names each cause in order of certainty, with the dollars re-billed", () => {
    const previous = call();
    const missed = { cachedTokens: 4000 };
    const expectCause = (current: CacheCallObservation, kind: string, before = previous) => {
      const miss = explainCacheMiss(before, current, pricing);
      expect(miss?.cause.kind).toBe(kind);
      expect(miss?.missedTokens).toBe(16_000);
      expect(miss?.rebilledUsd).toBeCloseTo(((pricing.input - pricing.cacheRead) * 16_000) / 1_000_000, 12);
      return miss!;
    };
    expect(expectCause(call({ ...missed, sentAtMs: 10 * minute, prefixBreak: { layer: "message", index: 3, firstDifferingToken: 4000, declared: false } }), "prefix_changed").summary).toMatch(/^prefix changed at message\[3\], token 4,000 \(undeclared\)/);
    expect(expectCause(call({ ...missed, prefixBreak: { layer: "tools", index: 2, firstDifferingToken: 900, declared: true, reason: "MCP tools changed" } }), "tools_changed").summary).toContain("declared: MCP tools changed");
    expect(expectCause(call({ ...missed, serverEditsBefore: ["clear_tool_uses_20250919"] }), "server_edit").summary).toContain("clear_tool_uses_20250919");
    expect(expectCause(call(missed), "server_edit", call({ serverCompacted: true })).cause).toEqual({ kind: "server_edit", edits: ["compaction"] });
    expect(expectCause(call({ ...missed, model: "gpt-5.1-mini" }), "model_changed").summary).toContain("gpt-5.1 → gpt-5.1-mini");
    expect(expectCause(call({ ...missed, effort: "high" }), "effort_changed", call({ effort: "low" })).cause).toEqual({ kind: "effort_changed", from: "low", to: "high" });
    const expired = expectCause(call({ ...missed, sentAtMs: 7 * minute + 12_000 }), "cache_expired");
    expect(expired.summary).toMatch(/^cache expired: 7m 12s since the previous call, past the 5m lifetime: 16,000 tokens re-billed \(\$0\.04\d+\)$/);
    // The same gap within a 1-hour lifetime is not an expiry.
    expectCause(call({ ...missed, sentAtMs: 7 * minute }), "provider_miss", call({ lifetimeMs: 60 * minute }));
  });

  it("names an effort or model change before the request-layer break it made, and a break elsewhere first", () => {
    const settingsBreak = { layer: "request", index: 0, firstDifferingToken: 30, declared: true, reason: "reasoning effort changed (medium → high)" };
    const miss = explainCacheMiss(call({ effort: "medium" }), call({ cachedTokens: 0, effort: "high", prefixBreak: settingsBreak }), pricing);
    expect(miss?.cause).toEqual({ kind: "effort_changed", from: "medium", to: "high" });
    expect(miss?.summary).toMatch(/^reasoning effort changed \(medium → high\): 20,000 tokens re-billed/);
    // A request-layer change with no effort or model change behind it is still a prefix change.
    expect(explainCacheMiss(call(), call({ cachedTokens: 0, prefixBreak: settingsBreak }))?.cause).toMatchObject({ kind: "prefix_changed", layer: "request", declared: true });
    // A system prompt that changed too is the cause for certain, whatever the effort did.
    const systemBreak = { layer: "system_static", index: 0, firstDifferingToken: 10, declared: false };
    expect(explainCacheMiss(call({ effort: "medium" }), call({ cachedTokens: 0, effort: "high", prefixBreak: systemBreak }))?.cause).toMatchObject({ kind: "prefix_changed", layer: "system_static" });
  });

  it("prices missed tokens the call wrote to the cache again at the write price, less what reads would have cost", () => {
    // Claude Opus 4.6: $5 input, $0.50 cache reads, $6.25 5-minute writes, $10 1-hour writes (per million).
    const opus = { input: 5, cacheRead: 0.5, cacheWrite: 6.25, cacheWrite1h: 10 };
    const expired = (overrides: Partial<CacheCallObservation>) => explainCacheMiss(call(), call({ sentAtMs: 10 * minute, cachedTokens: 0, ...overrides }), opus)!;
    // Written again with the 5-minute lifetime: (6.25 − 0.50) × 20,000.
    expect(expired({ cacheWriteTokens: 20_400 }).rebilledUsd).toBeCloseTo((5.75 * 20_000) / 1_000_000, 12);
    // With the 1-hour lifetime: (10 − 0.50) × 20,000.
    expect(expired({ cacheWriteTokens: 20_400, cacheWrite1hTokens: 20_400 }).rebilledUsd).toBeCloseTo((9.5 * 20_000) / 1_000_000, 12);
    // Part written, part plain input: 15,000 at the write price, 5,000 at the input price.
    expect(expired({ cacheWriteTokens: 15_000 }).rebilledUsd).toBeCloseTo((15_000 * 6.25 + 5000 * 5 - 20_000 * 0.5) / 1_000_000, 12);
    // No writes reported (OpenAI's automatic caching bills them as input): (input − read).
    expect(expired({}).rebilledUsd).toBeCloseTo((4.5 * 20_000) / 1_000_000, 12);
    expect(expired({ cacheWriteTokens: 20_000 }).summary).toMatch(/20,000 tokens re-billed \(\$0\.1150\)$/);
  });

  it("writes durations the way people read them", () => {
    expect([duration(0), duration(45_000), duration(5 * minute), duration(60 * minute), duration(62 * minute + 5000)]).toEqual(["0s", "45s", "5m", "1h", "1h 2m 5s"]);
  });
});
