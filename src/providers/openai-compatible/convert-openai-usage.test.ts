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

  // Claude Opus 4.5 on Bedrock behind LiteLLM v1.80.11, the usage object as pasted in BerriAI/litellm#11364
  // (2026-01-19): the 32,435 written tokens were read as plain input, priced at 1× instead of 1.25×.
  it("reads LiteLLM's cache_creation_input_tokens as cache writes, inside prompt_tokens", () => {
    const usage = convertOpenAIUsage({
      total_tokens: 103925,
      prompt_tokens: 98805,
      completion_tokens: 5120,
      prompt_tokens_details: { text_tokens: null, audio_tokens: null, image_tokens: null, cached_tokens: 66360, cache_creation_tokens: 32435 },
      cache_read_input_tokens: 66360,
      completion_tokens_details: { text_tokens: null, audio_tokens: null, image_tokens: null, reasoning_tokens: 1710, accepted_prediction_tokens: null, rejected_prediction_tokens: null },
      cache_creation_input_tokens: 32435,
    });
    expect(usage).toEqual({ inputTokens: 98805, cachedInputTokens: 66360, cacheWriteTokens: 32435, outputTokens: 5120, reasoningTokens: 1710 });
    // The top-level field alone (a build without prompt_tokens_details.cache_creation_tokens).
    expect(convertOpenAIUsage({ prompt_tokens: 98805, completion_tokens: 1, cache_creation_input_tokens: 32435 }).cacheWriteTokens).toBe(32435);
  });

  // An older LiteLLM (BerriAI/litellm#5285, 2024): Anthropic's input_tokens as prompt_tokens, the cache outside it.
  it("adds the cache counts to a prompt_tokens that leaves them out", () => {
    const usage = convertOpenAIUsage({ completion_tokens: 7, prompt_tokens: 194, total_tokens: 201, cache_creation_input_tokens: 9474, cache_read_input_tokens: 0 });
    expect(usage).toEqual({ inputTokens: 9668, cachedInputTokens: 0, cacheWriteTokens: 9474, outputTokens: 7, reasoningTokens: 0 });
  });

  it("counts missing, negative or non-numeric fields as 0", () => {
    expect(convertOpenAIUsage(null)).toEqual({ inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 });
    expect(convertOpenAIUsage({ prompt_tokens: "12", completion_tokens: -1, prompt_tokens_details: null }).inputTokens).toBe(0);
  });
});
