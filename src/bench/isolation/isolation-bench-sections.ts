import { formatBudgetRunReport, runBudgetRun } from "./budget-run.js";
import { formatDelegationReport } from "./format-delegation-report.js";
import { runDelegationBench } from "./run-delegation-bench.js";

/** What every section of `ctxkit bench isolation` gets: a scratch copy of the code base to work on. */
export interface IsolationBenchContext {
  /** A temporary folder holding the code base under `src/`. */
  workspace: string;
  /** The price list to cost calls with. */
  pricingModel?: string;
  /** Make the run small (the first n tasks), e.g. in tests. */
  limit?: number;
}

/** One part of the isolation bench: it returns data (written as JSON) and formats its own table. */
export interface IsolationBenchSection<Result = unknown> {
  name: string;
  title: string;
  run(context: IsolationBenchContext): Promise<Result>;
  format(result: Result): string;
}

export function defineIsolationBenchSection<Result>(section: IsolationBenchSection<Result>): IsolationBenchSection<Result> {
  return section;
}

const delegationSection = defineIsolationBenchSection({
  name: "delegation",
  title: "Searching in the main context vs in a sub-agent (explore) vs in a fork",
  run: (context) => runDelegationBench({ workspace: context.workspace, ...(context.pricingModel ? { pricingModel: context.pricingModel } : {}), ...(context.limit ? { limit: context.limit } : {}) }),
  format: formatDelegationReport,
});

const budgetSection = defineIsolationBenchSection({
  name: "budget",
  title: "A scripted agent that keeps reading under a hard token budget (virtual clock)",
  // A small run reads under the smallest limit only.
  run: (context) => runBudgetRun({ workspace: context.workspace, ...(context.limit ? { limits: [50_000] } : {}) }),
  format: formatBudgetRunReport,
});

/** The sections in the order they run and print; a new part of the bench is one more entry here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each section has its own result type
export const isolationBenchSections: readonly IsolationBenchSection<any>[] = [delegationSection, budgetSection];
