import { extractTokenFeatures, TOKEN_FEATURE_NAMES } from "./estimate-token-features.js";
import type { TokenFeatures } from "./estimate-token-features.js";
import type { TokenCounter } from "./token-counter.js";

/**
 * Which tokenizer family the estimate aims at. They differ mostly on numbers: `o200k` groups digits
 * by three (GPT-4o/GPT-5, Llama 3, DeepSeek V3, Kimi, GLM), `qwen3` spends one token per digit
 * (Qwen, Gemma/Gemini). `balanced` sits between the two for a model nothing is known about.
 */
export type EstimatorProfile = "balanced" | "o200k" | "qwen3";

export interface EstimatedTokenCounterOptions {
  profile?: EstimatorProfile;
}

/** Tokens per unit of each text feature. */
export type EstimatorCoefficients = Record<keyof TokenFeatures, number>;

/**
 * Tokens per feature, fitted by `ctxkit bench tokens --fit` (src/bench/token-estimator/
 * fit-estimator-coefficients.ts: non-negative least squares, each corpus type weighted equally)
 * against exact o200k and Qwen3 counts — `balanced` against their mean — on one half of each kind
 * of text: τ-bench airline dialogues (by task), the τ-bench policies and tool schemas, the 99
 * swe-gemini runs (by run) and a Chinese book chapter (by section). On the other half, which the
 * fit never saw, the matching profile's aggregate error is within 2% per kind (`ctxkit bench tokens`).
 * Kana, hangul, other scripts and letter blobs had no calibration text; their values are set by hand
 * from spot checks (about one token per 1.25 kana or hangul, per 3.3 Cyrillic letters, per 7 letters
 * of a blob).
 */
export const ESTIMATOR_COEFFICIENTS: Readonly<Record<EstimatorProfile, Readonly<EstimatorCoefficients>>> = {
  o200k: {
    newlineRuns: 0.508,
    hanChars: 0.745,
    kanaChars: 0.8,
    hangulChars: 0.8,
    otherLetterChars: 0.3,
    shortWords: 0.953,
    mediumWords: 0.979,
    longWords: 1.265,
    longWordExtraChars: 0.094,
    blobChars: 0.15,
    digitChars: 0,
    digitTriples: 1.542,
    punctuationRuns: 0.738,
    asciiPunctuationChars: 0.093,
    otherSymbolChars: 0.225,
    spaceRuns: 0.682,
    spaceChars: 0,
  },
  qwen3: {
    newlineRuns: 0.446,
    hanChars: 0.663,
    kanaChars: 0.8,
    hangulChars: 0.8,
    otherLetterChars: 0.3,
    shortWords: 0.989,
    mediumWords: 0.942,
    longWords: 1.312,
    longWordExtraChars: 0.053,
    blobChars: 0.15,
    digitChars: 0.863,
    digitTriples: 0.781,
    punctuationRuns: 0.768,
    asciiPunctuationChars: 0.077,
    otherSymbolChars: 0.049,
    spaceRuns: 0.706,
    spaceChars: 0,
  },
  balanced: {
    newlineRuns: 0.464,
    hanChars: 0.706,
    kanaChars: 0.8,
    hangulChars: 0.8,
    otherLetterChars: 0.3,
    shortWords: 0.971,
    mediumWords: 0.963,
    longWords: 1.282,
    longWordExtraChars: 0.074,
    blobChars: 0.15,
    digitChars: 0.389,
    digitTriples: 1.244,
    punctuationRuns: 0.754,
    asciiPunctuationChars: 0.085,
    otherSymbolChars: 0.121,
    spaceRuns: 0.695,
    spaceChars: 0,
  },
};

/** Estimates tokens from text features; never less than 1 for non-empty text. */
export function estimateTokens(text: string, profile: EstimatorProfile = "balanced"): number {
  return estimateTokensWith(text, ESTIMATOR_COEFFICIENTS[profile]);
}

/** The estimate under given coefficients (the fitting script measures candidates with it). */
export function estimateTokensWith(text: string, coefficients: Readonly<EstimatorCoefficients>): number {
  if (text.length === 0) return 0;
  const features = extractTokenFeatures(text);
  let total = 0;
  for (const name of TOKEN_FEATURE_NAMES) total += features[name] * coefficients[name];
  return Math.max(1, Math.round(total));
}

/**
 * A token counter for models whose tokenizer ctxkit does not ship (Claude, Gemini, DeepSeek, Kimi,
 * GLM, ...). Unlike characters / 4, which undercounts Chinese by half and tool-call JSON by a
 * quarter, it weighs CJK characters, words, digits, punctuation and whitespace separately.
 * Not exact: keep a margin (5–10%) when deciding whether a request fits the window.
 */
export function createEstimatedTokenCounter(options: EstimatedTokenCounterOptions = {}): TokenCounter {
  const profile = options.profile ?? "balanced";
  return { name: "estimate", exact: false, count: (text) => estimateTokens(text, profile) };
}
