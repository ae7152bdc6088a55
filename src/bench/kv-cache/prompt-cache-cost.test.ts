import { describe, expect, it } from "vitest";
import type { ModelPricing } from "../../tokens/pricing.js";
import { anthropicCacheOutcome, anthropicPromptCost, openAICacheOutcome, openAIPromptCost } from "./prompt-cache-cost.js";

const anthropic: ModelPricing = { provider: "anthropic", cacheRule: "anthropic-explicit", input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 };
const openai: ModelPricing = { provider: "openai", cacheRule: "openai-automatic", input: 2, cacheRead: 0.5, output: 8 };
const call = (promptTokens: number, reusablePrefixTokens: number, wholeMessageReusableTokens = reusablePrefixTokens) => ({
  promptTokens,
  reusablePrefixTokens,
  wholeMessageReusableTokens,
});

describe("OpenAI automatic caching", () => {
  it("caches nothing below 1,024 reusable tokens and then whole 128-token steps", () => {
    const cached = (reusable: number) => openAICacheOutcome(call(5000, reusable)).cachedTokens;
    expect([0, 1023, 1024, 1151, 1152].map(cached)).toEqual([0, 0, 1024, 1024, 1152]);
  });

  it("charges cached tokens at the cached price and the rest at the input price, writing nothing", () => {
    expect(openAICacheOutcome(call(2000, 1200)).cacheWriteTokens).toBe(0);
    expect(openAIPromptCost(call(2000, 1200), openai)).toBeCloseTo((1152 * 0.5 + 848 * 2) / 1e6, 12);
    expect(openAIPromptCost(call(2000, 1023), openai)).toBeCloseTo((2000 * 2) / 1e6, 12);
  });
});

describe("Anthropic explicit caching with ctxkit's breakpoints", () => {
  it("reads whole shared messages only, and only from 1,024 tokens on", () => {
    expect(anthropicCacheOutcome(call(3000, 2900, 1023)).cachedTokens).toBe(0);
    expect(anthropicCacheOutcome(call(3000, 2900, 1024)).cachedTokens).toBe(1024);
  });

  it("writes everything it does not read at 1.25× input", () => {
    expect(anthropicCacheOutcome(call(3000, 2900, 2000))).toEqual({ cachedTokens: 2000, cacheWriteTokens: 1000 });
    expect(anthropicPromptCost(call(3000, 2900, 2000), anthropic)).toBeCloseTo((2000 * 0.3 + 1000 * 3.75) / 1e6, 12);
    expect(anthropicPromptCost(call(3000, 2900, 0), anthropic)).toBeCloseTo((3000 * 3.75) / 1e6, 12);
  });

  it("neither reads nor writes a prompt below the minimum: plain input price", () => {
    expect(anthropicPromptCost(call(1023, 1000), anthropic)).toBeCloseTo((1023 * 3) / 1e6, 12);
    expect(anthropicPromptCost(call(1024, 0), anthropic)).toBeCloseTo((1024 * 3.75) / 1e6, 12);
  });
});
