import { describe, expect, it } from "vitest";
import { applyCacheRule } from "./cache-rules.js";
import { loadPricingSelection, selectPricing } from "./load-pricing.js";
import { costOfCall, defaultPricingCatalog, estimateCost } from "../tokens/pricing.js";

describe("cache rules", () => {
  it.each([
    [1023, 0],
    [1024, 1024],
    [1151, 1024],
    [1152, 1152],
    [5000, 4992],
  ])("OpenAI serves %i reusable tokens as %i cached (≥1024, 128-token steps)", (reusable, cached) => {
    expect(applyCacheRule("openai-automatic", { promptTokens: 10_000, reusablePrefixTokens: reusable })).toEqual({ cachedTokens: cached, cacheWriteTokens: 0 });
  });

  it("DeepSeek, Kimi and GLM cache in 64-token units", () => {
    for (const rule of ["deepseek-automatic", "kimi-automatic", "glm-automatic"] as const) {
      expect(applyCacheRule(rule, { promptTokens: 500, reusablePrefixTokens: 63 }).cachedTokens).toBe(0);
      expect(applyCacheRule(rule, { promptTokens: 500, reusablePrefixTokens: 200 }).cachedTokens).toBe(192);
    }
  });

  it("a local server reuses the whole common prefix, and never more than the prompt", () => {
    expect(applyCacheRule("local-prefix-reuse", { promptTokens: 500, reusablePrefixTokens: 321 }).cachedTokens).toBe(321);
    expect(applyCacheRule("local-prefix-reuse", { promptTokens: 300, reusablePrefixTokens: 321 }).cachedTokens).toBe(300);
    expect(applyCacheRule("none", { promptTokens: 500, reusablePrefixTokens: 321 }).cachedTokens).toBe(0);
  });

  it("Anthropic reads the previous body and writes the new tokens up to the last trajectory message, not the tail", () => {
    expect(applyCacheRule("anthropic-explicit", { promptTokens: 5000, reusablePrefixTokens: 4000, tailTokens: 50 })).toEqual({ cachedTokens: 4000, cacheWriteTokens: 950 });
    // The first call writes its whole body; below the 1,024-token minimum nothing is cached.
    expect(applyCacheRule("anthropic-explicit", { promptTokens: 3000, reusablePrefixTokens: 0, tailTokens: 20 })).toEqual({ cachedTokens: 0, cacheWriteTokens: 2980 });
    expect(applyCacheRule("anthropic-explicit", { promptTokens: 1023, reusablePrefixTokens: 900 })).toEqual({ cachedTokens: 0, cacheWriteTokens: 0 });
    expect(applyCacheRule("anthropic-explicit", { promptTokens: 2000, reusablePrefixTokens: 1000 })).toEqual({ cachedTokens: 0, cacheWriteTokens: 2000 });
  });
});

describe("costOfCall", () => {
  const sonnet = defaultPricingCatalog.models["claude-sonnet-4-5"]!;

  it("bills uncached input, cache reads (0.1×), 5-minute writes (1.25×) and output", () => {
    const cost = costOfCall({ promptTokens: 1_000_000, cachedTokens: 600_000, cacheWriteTokens: 200_000, outputTokens: 100_000 }, sonnet);
    expect(cost.input).toBeCloseTo(0.6, 10);
    expect(cost.cacheRead).toBeCloseTo(0.18, 10);
    expect(cost.cacheWrite).toBeCloseTo(0.75, 10);
    expect(cost.output).toBeCloseTo(1.5, 10);
    expect(cost.total).toBeCloseTo(3.03, 10);
  });

  it("bills 1-hour writes at 2× input, and writes at the input price where there is no premium", () => {
    expect(costOfCall({ promptTokens: 1_000_000, cachedTokens: 0, cacheWriteTokens: 1_000_000, outputTokens: 0 }, sonnet, { cacheWriteTtl: "1h" }).total).toBeCloseTo(6, 10);
    const gpt = defaultPricingCatalog.models["gpt-4o"]!;
    expect(costOfCall({ promptTokens: 1_000_000, cachedTokens: 0, cacheWriteTokens: 1_000_000, outputTokens: 0 }, gpt).total).toBeCloseTo(2.5, 10);
    expect(estimateCost({ inputTokens: 1_000_000, cachedInputTokens: 1_000_000, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 }, gpt)).toBeCloseTo(1.25, 10);
  });
});

describe("--pricing", () => {
  it("takes a catalog model name, with or without a version suffix", () => {
    expect(selectPricing(loadPricingSelection("claude-sonnet-4-5-20250929"), "anything")).toMatchObject({ name: "claude-sonnet-4-5", pricing: { cacheRule: "anthropic-explicit" } });
    expect(() => loadPricingSelection("no-such-model")).toThrowError(/No prices for 'no-such-model'.*gpt-4o/);
  });

  it("reads one model's prices, or a catalog that overrides the built-in one, from a JSON file", () => {
    const one = loadPricingSelection("prices.json", () => '{"input": 1, "cacheRead": 0.1, "output": 2, "cacheRule": "openai-automatic"}');
    expect(selectPricing(one, undefined)).toEqual({ name: "prices.json", pricing: { provider: "custom", cacheRule: "openai-automatic", input: 1, cacheRead: 0.1, output: 2 } });
    const catalog = loadPricingSelection("catalog.json", () => '{"models": {"my-model": {"input": 1, "cacheRead": 0.5, "output": 3}}}');
    expect(selectPricing(catalog, "org/my-model-v2")).toMatchObject({ name: "my-model", pricing: { input: 1 } });
    expect(selectPricing(catalog, "gpt-4o")).toMatchObject({ name: "gpt-4o" });
    expect(() => loadPricingSelection("bad.json", () => '{"input": -1}')).toThrowError(/'input' must be a non-negative number/);
  });
});
