import { describe, expect, it } from "vitest";
import { extractTokenFeatures } from "./estimate-token-features.js";
import { createEstimatedTokenCounter, estimateTokens } from "./estimated-token-counter.js";
import { getTokenCounter } from "./get-token-counter.js";
import { chineseSample, codeSample, englishSample, toolResultSample } from "./test-support/sample-texts.js";

const qwen3 = getTokenCounter("qwen3");
const o200k = getTokenCounter("o200k");
const relativeError = (estimate: number, exact: number) => Math.abs(estimate / exact - 1);
const charsOver4 = (text: string) => Math.round(text.length / 4);

describe("createEstimatedTokenCounter", () => {
  const estimate = createEstimatedTokenCounter();

  it("counts Chinese within 10% of Qwen3 and o200k, where characters / 4 is off by half", () => {
    const estimated = estimate.count(chineseSample);
    for (const exact of [qwen3.count(chineseSample), o200k.count(chineseSample)]) {
      expect(relativeError(estimated, exact)).toBeLessThan(0.1);
      expect(relativeError(charsOver4(chineseSample), exact)).toBeGreaterThan(0.4);
    }
  });

  it("counts English prose and code within 10% of both tokenizers", () => {
    for (const text of [englishSample, codeSample]) {
      expect(relativeError(estimate.count(text), qwen3.count(text))).toBeLessThan(0.1);
      expect(relativeError(estimate.count(text), o200k.count(text))).toBeLessThan(0.1);
    }
  });

  it("follows each tokenizer family on number-heavy JSON with the matching profile", () => {
    const asQwen3 = createEstimatedTokenCounter({ profile: "qwen3" }).count(toolResultSample);
    const asO200k = createEstimatedTokenCounter({ profile: "o200k" }).count(toolResultSample);
    expect(relativeError(asQwen3, qwen3.count(toolResultSample))).toBeLessThan(0.12);
    expect(relativeError(asO200k, o200k.count(toolResultSample))).toBeLessThan(0.12);
    expect(asQwen3).toBeGreaterThan(asO200k);
    expect(relativeError(charsOver4(toolResultSample), o200k.count(toolResultSample))).toBeGreaterThan(0.2);
  });

  it("counts nothing for empty text and at least one token otherwise", () => {
    expect(estimate.count("")).toBe(0);
    expect(estimate.count(" ")).toBe(1);
    expect(estimateTokens("a")).toBe(1);
  });

  it("does not let a blob of letters pass as one word", () => {
    expect(estimate.count("a".repeat(1000))).toBeGreaterThan(100);
  });
});

describe("extractTokenFeatures", () => {
  it("separates scripts, words, digits, punctuation and whitespace", () => {
    const features = extractTokenFeatures('上下文 KV cache: 12345 tokens\n\n  {"ok": true} カナ 한국 Привет');
    expect(features).toMatchObject({
      hanChars: 3,
      kanaChars: 2,
      hangulChars: 2,
      otherLetterChars: 6,
      shortWords: 3,
      mediumWords: 2,
      digitChars: 5,
      digitTriples: 2,
      newlineRuns: 1,
    });
    expect(features.punctuationRuns).toBe(4);
  });
});
