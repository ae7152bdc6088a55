import { extractTokenFeatures, TOKEN_FEATURE_NAMES, type EstimatorCoefficients, type TokenFeatures } from "../../tokens/index.js";
import type { CountTokens } from "./estimator-error.js";
import type { TextCategory } from "./text-category.js";

type FeatureName = keyof TokenFeatures;

/**
 * Features the calibration text has (almost) none of — kana, hangul, other scripts, letter blobs —
 * keep hand-set values from spot checks (about one token per 1.25 kana or hangul, per 3.3 Cyrillic
 * letters, per 7 letters of a blob); fitting them on a handful of occurrences would be noise.
 */
export const HAND_SET_FEATURES: Readonly<Partial<Record<FeatureName, number>>> = {
  kanaChars: 0.8,
  hangulChars: 0.8,
  otherLetterChars: 0.3,
  blobChars: 0.15,
};

export interface FitOptions {
  /** The exact count to fit to (one tokenizer, or the mean of two for the balanced profile). */
  exact: CountTokens;
  /** Coordinate-descent sweeps (default 4,000; the 17-feature problem converges long before). */
  sweeps?: number;
}

/**
 * Non-negative least squares of exact token counts on text features, each category weighing the
 * same: a text's squared error is divided by its own size and by its category's total, so a
 * category with a million tokens does not drown one with ten thousand. Hand-set features are
 * subtracted first and kept. Deterministic: the same texts give the same coefficients.
 */
export function fitEstimatorCoefficients(categories: readonly TextCategory[], options: FitOptions): EstimatorCoefficients {
  const free = TOKEN_FEATURE_NAMES.filter((name) => HAND_SET_FEATURES[name] === undefined);
  const size = free.length;
  const gram = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  const target = new Array<number>(size).fill(0);
  for (const category of categories) {
    const rows = category.texts.map((text) => ({ features: extractTokenFeatures(text), exact: options.exact(text) }));
    const total = rows.reduce((sum, row) => sum + row.exact, 0);
    if (total === 0) continue;
    for (const text of rows) {
      const weight = 1 / (total * (text.exact + 10));
      let residual = text.exact;
      for (const [name, value] of Object.entries(HAND_SET_FEATURES) as Array<[FeatureName, number]>) residual -= text.features[name] * value;
      const vector = free.map((name) => text.features[name]);
      for (let i = 0; i < size; i++) {
        if (vector[i] === 0) continue;
        target[i] = target[i]! + weight * vector[i]! * residual;
        const row = gram[i]!;
        for (let j = 0; j < size; j++) row[j] = row[j]! + weight * vector[i]! * vector[j]!;
      }
    }
  }
  const solution = new Array<number>(size).fill(0);
  for (let sweep = 0; sweep < (options.sweeps ?? 4_000); sweep++) {
    for (let i = 0; i < size; i++) {
      const diagonal = gram[i]![i]!;
      if (diagonal === 0) continue;
      let gradient = -target[i]!;
      for (let j = 0; j < size; j++) gradient += gram[i]![j]! * solution[j]!;
      solution[i] = Math.max(0, solution[i]! - gradient / diagonal);
    }
  }
  const coefficients = { ...HAND_SET_FEATURES } as EstimatorCoefficients;
  free.forEach((name, index) => (coefficients[name] = round(solution[index]!)));
  return Object.fromEntries(TOKEN_FEATURE_NAMES.map((name) => [name, coefficients[name]])) as EstimatorCoefficients;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
