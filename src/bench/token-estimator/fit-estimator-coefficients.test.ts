import { describe, expect, it } from "vitest";
import { extractTokenFeatures } from "../../tokens/index.js";
import { fitEstimatorCoefficients } from "./fit-estimator-coefficients.js";

describe("fitEstimatorCoefficients", () => {
  it("recovers the per-feature costs of a tokenizer that is linear in the features", () => {
    // A made-up tokenizer: 1 per short word, 2 per medium word, 0.5 per newline run, 1 per punctuation run.
    const exact = (text: string) => {
      const features = extractTokenFeatures(text);
      return features.shortWords + 2 * features.mediumWords + 0.5 * features.newlineRuns + features.punctuationRuns;
    };
    const words = ["cat", "dog", "house", "garden", "tree", "window", "a", "planet"];
    const texts = Array.from({ length: 60 }, (_, index) => {
      const pick = (offset: number) => words[(index * 7 + offset * 3) % words.length]!;
      return `${pick(0)} ${pick(1)}${index % 3 === 0 ? "!" : ""}\n${pick(2)} ${pick(3)} ${index % 2 === 0 ? pick(4) : ""}`;
    });
    const coefficients = fitEstimatorCoefficients([{ id: "t", name: "t", source: "", texts, groups: texts }], { exact });
    expect(coefficients.shortWords).toBeCloseTo(1, 1);
    expect(coefficients.mediumWords).toBeCloseTo(2, 1);
    expect(coefficients.newlineRuns).toBeCloseTo(0.5, 1);
    expect(coefficients.punctuationRuns).toBeCloseTo(1, 1);
    expect(coefficients.kanaChars).toBe(0.8); // hand-set, not fitted
    expect(Object.values(coefficients).every((value) => value >= 0)).toBe(true);
  });
});
