import { getTokenCounter, type EstimatorCoefficients, type EstimatorProfile } from "../../tokens/index.js";
import type { CountTokens } from "./estimator-error.js";
import { fitEstimatorCoefficients } from "./fit-estimator-coefficients.js";
import { runTokensBench, type TokensBenchResult } from "./run-tokens-bench.js";
import { splitTextCategory } from "./split-text-category.js";
import type { SkippedCategory, TextCategory } from "./text-category.js";

export interface HeldOutTokensBenchResult {
  /** The error on the halves the coefficients were not fitted on: the number to believe. */
  heldOut: TokensBenchResult;
  /** The error on the halves they were fitted on (for comparison: a large gap means overfitting). */
  fit: TokensBenchResult;
  /** With `refit`: the coefficients fitted on the fit halves, which `heldOut` and `fit` measured. */
  fitted?: Record<EstimatorProfile, EstimatorCoefficients>;
}

/**
 * The tokens benchmark on held-out data: every category is split in two by its groups (see
 * `splitTextCategory`); the error is reported on each half. With `refit`, the coefficients are
 * first fitted on the fit halves (`fitEstimatorCoefficients`) — this is the fitting script whose
 * output `src/tokens/estimated-token-counter.ts` ships — and both halves are measured with them.
 */
export function runHeldOutTokensBench(
  categories: readonly TextCategory[],
  skipped: readonly SkippedCategory[],
  options: { refit?: boolean; onProgress?: (done: number, total: number) => void } = {},
): HeldOutTokensBenchResult {
  const halves = categories.map(splitTextCategory);
  // The exact counts are the slow part: each distinct text is counted once per tokenizer.
  const progress = { done: 0, total: 2 * new Set(categories.flatMap((category) => category.texts)).size };
  const onCounted = () => {
    progress.done++;
    if (progress.done % 64 === 0 || progress.done === progress.total) options.onProgress?.(progress.done, progress.total);
  };
  const exact = { qwen3: memoised(getTokenCounter("qwen3").count, onCounted), o200k: memoised(getTokenCounter("o200k").count, onCounted) };
  const fitHalves = halves.map((half) => half.fit);
  let fitted: Record<EstimatorProfile, EstimatorCoefficients> | undefined;
  if (options.refit) {
    const fit = (count: CountTokens) => fitEstimatorCoefficients(fitHalves, { exact: count });
    fitted = { qwen3: fit(exact.qwen3), o200k: fit(exact.o200k), balanced: fit((text) => (exact.qwen3(text) + exact.o200k(text)) / 2) };
  }
  const benchOptions = fitted ? { coefficients: fitted } : {};
  // The held-out half first, with the tokenizers themselves: its throughput is a real one.
  const heldOut = runTokensBench(
    halves.map((half) => half.heldOut),
    skipped,
    options.refit ? { ...benchOptions, exact } : { exact: { qwen3: exact.qwen3, o200k: exact.o200k } },
  );
  const fit = runTokensBench(fitHalves, skipped, { ...benchOptions, exact });
  return { heldOut, fit, ...(fitted ? { fitted } : {}) };
}

/** Each distinct text counted once (the fit and both measurements read the same texts). */
function memoised(count: CountTokens, onCounted: () => void): CountTokens {
  const counts = new Map<string, number>();
  return (text) => {
    let tokens = counts.get(text);
    if (tokens === undefined) {
      counts.set(text, (tokens = count(text)));
      onCounted();
    }
    return tokens;
  };
}
