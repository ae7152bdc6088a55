import { describe, expect, it } from "vitest";
import { convertAnthropicUsage, mergeAnthropicUsage } from "./convert-anthropic-usage.js";

describe("convertAnthropicUsage", () => {
  it("counts cache reads and writes into inputTokens because input_tokens is only the uncached part", () => {
    expect(
      convertAnthropicUsage({ input_tokens: 12, cache_read_input_tokens: 1800, cache_creation_input_tokens: 300, output_tokens: 40 }),
    ).toEqual({ inputTokens: 2112, cachedInputTokens: 1800, cacheWriteTokens: 300, outputTokens: 40, reasoningTokens: 0 });
  });
  it("treats missing and null fields as 0", () => {
    expect(convertAnthropicUsage({ input_tokens: 5, cache_read_input_tokens: null })).toEqual({
      inputTokens: 5,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 0,
      reasoningTokens: 0,
    });
  });
  it("lets message_delta's cumulative counts replace message_start's, keeping fields it leaves out", () => {
    expect(mergeAnthropicUsage({ input_tokens: 5, cache_read_input_tokens: 7, output_tokens: 1 }, { output_tokens: 30, input_tokens: null })).toEqual({
      input_tokens: 5,
      cache_read_input_tokens: 7,
      output_tokens: 30,
    });
  });
});
