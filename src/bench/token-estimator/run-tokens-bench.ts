import { estimateTokensWith, ESTIMATOR_COEFFICIENTS, getTokenCounter, type EstimatorCoefficients, type EstimatorProfile } from "../../tokens/index.js";
import { measureEstimatorError, type CategoryError, type CountTokens } from "./estimator-error.js";
import type { SkippedCategory, TextCategory } from "./text-category.js";
import { timeCount, type TimedCount } from "./timed-count.js";

/** The target of issue 4: the matching profile within 5% of the exact count on every category. */
export const ESTIMATOR_ERROR_TARGET = 0.05;

export interface CounterThroughput {
  counter: string;
  /** Vocabulary load on first use (exact counters only), left out of the rate. */
  loadMs?: number;
  countMs: number;
  megabytesPerSecond: number;
}

export interface TokensBenchResult {
  benchmark: "tokens";
  categories: CategoryError[];
  all: CategoryError;
  skipped: SkippedCategory[];
  /** UTF-8 megabytes (10^6 bytes) counted by each counter, the same text for all. */
  megabytes: number;
  throughput: CounterThroughput[];
  target: { maxAbsError: number; met: boolean; worst: { category: string; tokenizer: "qwen3" | "o200k"; error: number } | null };
}

export interface TokensBenchOptions {
  /** The estimator's coefficients to measure (default: the shipped ones). */
  coefficients?: Readonly<Record<EstimatorProfile, Readonly<EstimatorCoefficients>>>;
  /** Exact counters to use instead of the tokenizers (e.g. memoised ones); their time is then not a throughput. */
  exact?: { qwen3: CountTokens; o200k: CountTokens };
}

/** Runs the exact tokenizers and the estimator over the categories: error per category, throughput per counter. */
export function runTokensBench(categories: readonly TextCategory[], skipped: readonly SkippedCategory[] = [], options: TokensBenchOptions = {}): TokensBenchResult {
  const loadMs = { qwen3: warmUp("qwen3"), o200k: warmUp("o200k") };
  const coefficients = options.coefficients ?? ESTIMATOR_COEFFICIENTS;
  const estimator = (profile: EstimatorProfile): CountTokens => (text) => estimateTokensWith(text, coefficients[profile]);
  const timed: Record<string, TimedCount> = {
    "qwen3 (exact)": timeCount(options.exact?.qwen3 ?? ((text) => getTokenCounter("qwen3").count(text))),
    "o200k (exact)": timeCount(options.exact?.o200k ?? ((text) => getTokenCounter("o200k").count(text))),
    "estimate balanced": timeCount(estimator("balanced")),
    "estimate qwen3": timeCount(estimator("qwen3")),
    "estimate o200k": timeCount(estimator("o200k")),
  };
  const { categories: rows, all } = measureEstimatorError(categories, {
    exact: { qwen3: timed["qwen3 (exact)"]!.count, o200k: timed["o200k (exact)"]!.count },
    estimate: { balanced: timed["estimate balanced"]!.count, qwen3: timed["estimate qwen3"]!.count, o200k: timed["estimate o200k"]!.count },
  });
  const megabytes = all.utf8Bytes / 1e6;
  const throughput = Object.entries(timed).map(([counter, { elapsedMs }]) => ({
    counter,
    ...(counter === "qwen3 (exact)" ? { loadMs: loadMs.qwen3 } : counter === "o200k (exact)" ? { loadMs: loadMs.o200k } : {}),
    countMs: elapsedMs(),
    megabytesPerSecond: elapsedMs() === 0 ? 0 : megabytes / (elapsedMs() / 1000),
  }));
  return { benchmark: "tokens", categories: rows, all, skipped: [...skipped], megabytes, throughput, target: judgeTarget(rows) };
}

/** Exact counters build their vocabulary on the first count; timed apart so the rate is the steady one. */
function warmUp(name: "qwen3" | "o200k"): number {
  const started = performance.now();
  getTokenCounter(name).count("warm up");
  return performance.now() - started;
}

function judgeTarget(rows: readonly CategoryError[]): TokensBenchResult["target"] {
  let worst: { category: string; tokenizer: "qwen3" | "o200k"; error: number } | null = null;
  for (const row of rows) {
    for (const tokenizer of ["qwen3", "o200k"] as const) {
      const error = row.error[tokenizer].matching;
      if (worst === null || Math.abs(error) > Math.abs(worst.error)) worst = { category: row.id, tokenizer, error };
    }
  }
  return { maxAbsError: ESTIMATOR_ERROR_TARGET, met: worst !== null && Math.abs(worst.error) <= ESTIMATOR_ERROR_TARGET, worst };
}
