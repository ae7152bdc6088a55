import { describe, expect, it } from "vitest";
import { costOfCall, findModelPricing, findModelPricingMatch } from "./pricing.js";

describe("findModelPricingMatch", () => {
  it("prices current models by their own entries", () => {
    for (const model of ["claude-opus-4-6", "claude-opus-4-7", "gpt-5.1", "gpt-5.2", "gpt-5.2-codex", "gpt-5-codex"]) {
      expect(findModelPricingMatch(model)).toEqual({ name: model, fallback: false });
    }
    expect(findModelPricing("gpt-5.2")).toMatchObject({ input: 1.75, cacheRead: 0.175, output: 14 });
    expect(findModelPricing("claude-opus-4-7")).toMatchObject({ input: 5, cacheWrite: 6.25, cacheWrite1h: 10, cacheRead: 0.5, output: 25 });
  });

  it("treats vendor prefixes, dated snapshots and -latest as the same model", () => {
    expect(findModelPricingMatch("claude-sonnet-4-5-20250929")).toEqual({ name: "claude-sonnet-4-5", fallback: false });
    expect(findModelPricingMatch("openai/gpt-5.2-2025-12-11")).toEqual({ name: "gpt-5.2", fallback: false });
    expect(findModelPricingMatch("anthropic/claude-opus-4-6")).toEqual({ name: "claude-opus-4-6", fallback: false });
  });

  it("says when another model's prices are used", () => {
    expect(findModelPricingMatch("gpt-5.2-pro")).toEqual({ name: "gpt-5.2", fallback: true });
    expect(findModelPricingMatch("gpt-5.5")).toEqual({ name: "gpt-5", fallback: true });
    expect(findModelPricingMatch("llama-3")).toBeUndefined();
  });
});

describe("costOfCall cache-write lifetimes", () => {
  const opus = findModelPricing("claude-opus-4-6")!;
  it("prices each call's 1-hour writes at the 1-hour rate and the rest at the 5-minute rate", () => {
    const cost = costOfCall({ promptTokens: 1000, cachedTokens: 0, cacheWriteTokens: 800, cacheWrite1hTokens: 600, outputTokens: 0 }, opus);
    expect(cost.cacheWrite).toBeCloseTo((200 * 6.25 + 600 * 10) / 1_000_000, 12);
    expect(cost.input).toBeCloseTo((200 * 5) / 1_000_000, 12);
  });
  it("uses the cacheWriteTtl option only where the call does not say", () => {
    expect(costOfCall({ promptTokens: 100, cachedTokens: 0, cacheWriteTokens: 100, outputTokens: 0 }, opus, { cacheWriteTtl: "1h" }).cacheWrite).toBeCloseTo(0.001, 12);
    expect(costOfCall({ promptTokens: 100, cachedTokens: 0, cacheWriteTokens: 100, cacheWrite1hTokens: 0, outputTokens: 0 }, opus, { cacheWriteTtl: "1h" }).cacheWrite).toBeCloseTo(0.000625, 12);
  });
});
