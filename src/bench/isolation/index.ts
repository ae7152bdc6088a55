export { runIsolationBench, formatIsolationBench, type IsolationBenchOptions, type IsolationBenchResult } from "./run-isolation-bench.js";
export { defineIsolationBenchSection, isolationBenchSections, type IsolationBenchContext, type IsolationBenchSection } from "./isolation-bench-sections.js";
export { runDelegationBench, isolationArms, type DelegationBenchResult, type DelegationRun, type DelegationArmTotals } from "./run-delegation-bench.js";
export { isolationQueries, type IsolationQuery } from "./isolation-queries.js";
