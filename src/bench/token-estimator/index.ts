// Issue 4: the token estimator's error against the exact tokenizers on the corpus, and its speed.
export { loadTextCategories, sampleEvenly, type LoadedTextCategories, type LoadTextCategoriesOptions } from "./load-text-categories.js";
export type { SkippedCategory, TextCategory } from "./text-category.js";
export { charsOver4, measureEstimatorError, relativeError, type CategoryError, type CountTokens, type ErrorCounters, type EstimatorErrorResult, type RelativeErrors } from "./estimator-error.js";
export { timeCount, type TimedCount } from "./timed-count.js";
export { ESTIMATOR_ERROR_TARGET, runTokensBench, type CounterThroughput, type TokensBenchResult } from "./run-tokens-bench.js";
export { formatTokensReport } from "./format-tokens-report.js";
export { runHeldOutTokensBench, type HeldOutTokensBenchResult } from "./run-held-out-tokens-bench.js";
export { fitEstimatorCoefficients, HAND_SET_FEATURES, type FitOptions } from "./fit-estimator-coefficients.js";
export { sectionsOf, splitTextCategory, type SplitCategory } from "./split-text-category.js";
