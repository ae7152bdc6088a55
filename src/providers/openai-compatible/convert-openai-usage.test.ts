import { describe, expect, it } from "vitest";
import { convertOpenAIUsage } from "./convert-openai-usage.js";

describe("convertOpenAIUsage", () => {
  it("reads OpenAI's prompt_tokens_details.cached_tokens and reasoning_tokens", () => {
    const usage = convertOpenAIUsage({
      prompt_tokens: 2006,
      completion_tokens: 300,
      total_tokens: 2306,
      prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 192, audio_tokens: 0 },
    });
    expect(usage).toEqual({ inputTokens: 2006, cachedInputTokens: 1920, cacheWriteTokens: 0, outputTokens: 300, reasoningTokens: 192 });
  });

  it("reads DeepSeek's prompt_cache_hit_tokens", () => {
    const usage = convertOpenAIUsage({
      prompt_tokens: 1500,
      completion_tokens: 20,
      total_tokens: 1520,
      prompt_cache_hit_tokens: 1280,
      prompt_cache_miss_tokens: 220,
    });
    expect(usage).toEqual({ inputTokens: 1500, cachedInputTokens: 1280, cacheWriteTokens: 0, outputTokens: 20, reasoningTokens: 0 });
  });

  it("derives prompt tokens from DeepSeek's hit + miss when prompt_tokens is absent", () => {
    expect(convertOpenAIUsage({ prompt_cache_hit_tokens: 10, prompt_cache_miss_tokens: 5 }).inputTokens).toBe(15);
  });

  it("reads Kimi's usage.cached_tokens", () => {
    const usage = convertOpenAIUsage({ prompt_tokens: 900, completion_tokens: 12, total_tokens: 912, cached_tokens: 768 });
    expect(usage.cachedInputTokens).toBe(768);
  });

  it("reads OpenRouter's prompt_tokens_details.cache_write_tokens as cache writes", () => {
    // https://openrouter.ai/docs/use-cases/usage-accounting (Anthropic models behind OpenRouter bill writes at 1.25×).
    const usage = convertOpenAIUsage({
      prompt_tokens: 194,
      completion_tokens: 2,
      total_tokens: 196,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 100, audio_tokens: 0 },
    });
    expect(usage).toEqual({ inputTokens: 194, cachedInputTokens: 0, cacheWriteTokens: 100, outputTokens: 2, reasoningTokens: 0 });
  });

  it("counts missing, negative or non-numeric fields as 0", () => {
    expect(convertOpenAIUsage(null)).toEqual({ inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 });
    expect(convertOpenAIUsage({ prompt_tokens: "12", completion_tokens: -1, prompt_tokens_details: null }).inputTokens).toBe(0);
  });
});
