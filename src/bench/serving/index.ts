export { runServingBench, median, type ServingBenchOptions, type ServingBenchResult, type ServingRow, type ConcurrencyRow, type ServingVariantResult } from "./run-serving-bench.js";
export { buildServingWorkload, servingVariants, type ServingVariant, type ServingWorkload } from "./serving-workload.js";
export { formatServingReport } from "./format-serving-report.js";
