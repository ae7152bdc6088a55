import { describe, expect, it } from "vitest";
import type { ModelPricing } from "../../session/pricing.js";
import { anthropicCacheReadTokens, anthropicPromptCost, openAICachedTokens, openAIPromptCost } from "./prompt-cache-cost.js";

const anthropic: ModelPricing = { provider: "anthropic", cacheRule: "anthropic-explicit", input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 };
const openai: ModelPricing = { provider: "openai", cacheRule: "openai-automatic", input: 2, cacheRead: 0.5, output: 8 };

describe("OpenAI automatic caching", () => {
  it("caches nothing below 1,024 reusable tokens and then whole 128-token steps", () => {
    expect(openAICachedTokens(0)).toBe(0);
    expect(openAICachedTokens(1023)).toBe(0);
    expect(openAICachedTokens(1024)).toBe(1024);
    expect(openAICachedTokens(1151)).toBe(1024);
    expect(openAICachedTokens(1152)).toBe(1152);
  });

  it("charges cached tokens at the cached price and the rest at the input price", () => {
    const call = { promptTokens: 2000, reusablePrefixTokens: 1200, wholeMessageReusableTokens: 1000 };
    expect(openAIPromptCost(call, openai)).toBeCloseTo((1152 * 0.5 + 848 * 2) / 1e6, 12);
    expect(openAIPromptCost({ ...call, reusablePrefixTokens: 1023 }, openai)).toBeCloseTo((2000 * 2) / 1e6, 12);
  });
});

describe("Anthropic explicit caching with ctxkit's breakpoints", () => {
  it("reads whole shared messages only, and only from 1,024 tokens on", () => {
    expect(anthropicCacheReadTokens({ promptTokens: 3000, reusablePrefixTokens: 2900, wholeMessageReusableTokens: 1023 })).toBe(0);
    expect(anthropicCacheReadTokens({ promptTokens: 3000, reusablePrefixTokens: 2900, wholeMessageReusableTokens: 1024 })).toBe(1024);
  });

  it("writes everything it does not read at 1.25× input", () => {
    const call = { promptTokens: 3000, reusablePrefixTokens: 2900, wholeMessageReusableTokens: 2000 };
    expect(anthropicPromptCost(call, anthropic)).toBeCloseTo((2000 * 0.3 + 1000 * 3.75) / 1e6, 12);
    expect(anthropicPromptCost({ ...call, wholeMessageReusableTokens: 0 }, anthropic)).toBeCloseTo((3000 * 3.75) / 1e6, 12);
  });

  it("neither reads nor writes a prompt below the minimum: plain input price", () => {
    expect(anthropicPromptCost({ promptTokens: 1023, reusablePrefixTokens: 1000, wholeMessageReusableTokens: 1000 }, anthropic)).toBeCloseTo((1023 * 3) / 1e6, 12);
    expect(anthropicPromptCost({ promptTokens: 1024, reusablePrefixTokens: 0, wholeMessageReusableTokens: 0 }, anthropic)).toBeCloseTo((1024 * 3.75) / 1e6, 12);
  });

  it("prices writes at 1.25× input when the catalog has no write price", () => {
    const { cacheWrite: _cacheWrite, ...withoutWrite } = anthropic;
    expect(anthropicPromptCost({ promptTokens: 2000, reusablePrefixTokens: 0, wholeMessageReusableTokens: 0 }, withoutWrite)).toBeCloseTo((2000 * 3.75) / 1e6, 12);
  });
});
