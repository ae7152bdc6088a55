export { formatHardeningReport } from "./format-hardening-report.js";
export { batteryNames, defaultCounts, fullCounts, runHardeningBench, trialCounts, type BatteryName, type HardeningBenchOptions, type HardeningBenchResult } from "./run-hardening-bench.js";
export { failureClasses, type BatteryResult, type NamedCase } from "./hardening-trial.js";
