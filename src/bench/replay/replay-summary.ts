import type { ReplayedRun } from "./replay-run.js";
import type { ReplayHalf } from "./split-runs.js";

/** One run under one policy, as the report shows it. */
export interface RunSummary {
  run: string;
  policy: string;
  calls: number;
  overflows: number;
  /** Calls whose first attempt overflowed and whose retry fitted. */
  rescued: number;
  compactions: number;
  promptTokens: number;
  reusablePrefixTokens: number;
  uncachedTokens: number;
  outputTokens: number;
  /** USD of the replayed calls and of every summary call: what the run would have cost. */
  cost: number;
  /** USD of the replayed calls alone (the cost without summaries). */
  callCost: number;
  /** Summariser calls billed (see `ReplayedSummaryCall`), their prompt, uncached and output tokens, and USD. */
  summaryCalls: number;
  summaryPromptTokens: number;
  summaryUncachedTokens: number;
  summaryOutputTokens: number;
  summaryCost: number;
  peakTokens: number;
  /** Identifier pairs scored (see `findReferencePairs`) and how many were still visible. */
  references: number;
  referencesVisible: number;
  /** null when the run has no pairs. */
  referenceRecall: number | null;
  /** Pairs whose source line was still visible verbatim (see `ReferencePair.line`). */
  linesVisible: number;
  lineRecall: number | null;
  /** Calls (1-based) whose prompt exceeded the window. */
  overflowCalls: number[];
  lostReferences: Array<{ identifier: string; call: number }>;
  lostLines: Array<{ identifier: string; call: number }>;
  /** Which half of the corpus the run is in (see `halfOf`). */
  half?: ReplayHalf;
  /** The run's transcript format. */
  format?: string;
  /** The policy's own account of what it did, when it keeps one (`stats()`). */
  policyStats?: unknown;
  /** Set when the policy threw on this run; the row's numbers are then empty. */
  error?: string;
}

/** One policy over all runs: the comparison table's row (the `--json` `policies` entries). */
export interface PolicySummary {
  policy: string;
  runs: number;
  overflows: number;
  rescued: number;
  compactions: number;
  promptTokens: number;
  reusablePrefixTokens: number;
  uncachedTokens: number;
  /** USD with every summary call billed; `callCost` without them; `summaryCost` the difference. */
  cost: number;
  callCost: number;
  summaryCalls: number;
  summaryPromptTokens: number;
  summaryCost: number;
  /** The largest prompt of any call of any run. */
  peakTokens: number;
  references: number;
  /** Visible pairs over all pairs of all runs (each pair weighs the same), null without pairs. */
  referenceRecall: number | null;
  /** The same for the pairs' source lines. */
  lineRecall: number | null;
  /** Runs the policy threw on (left out of the sums). */
  errors: number;
}

export function summarizeReplayedRun(replayed: ReplayedRun): RunSummary {
  const sum = (pick: (call: ReplayedRun["calls"][number]) => number) => replayed.calls.reduce((total, call) => total + pick(call), 0);
  const visible = replayed.references - replayed.lostReferences.length;
  const linesVisible = replayed.references - replayed.lostLines.length;
  return {
    run: replayed.run,
    policy: replayed.policy,
    calls: replayed.calls.length,
    overflows: replayed.calls.filter((call) => call.overflow).length,
    rescued: replayed.calls.filter((call) => call.rescued).length,
    compactions: sum((call) => call.compactions),
    promptTokens: sum((call) => call.promptTokens),
    reusablePrefixTokens: sum((call) => call.reusablePrefixTokens),
    uncachedTokens: sum((call) => call.uncachedTokens),
    outputTokens: sum((call) => call.outputTokens),
    ...costsOf(replayed),
    peakTokens: replayed.calls.reduce((peak, call) => Math.max(peak, call.promptTokens), 0),
    references: replayed.references,
    referencesVisible: visible,
    referenceRecall: replayed.references === 0 ? null : visible / replayed.references,
    linesVisible,
    lineRecall: replayed.references === 0 ? null : linesVisible / replayed.references,
    overflowCalls: replayed.calls.filter((call) => call.overflow).map((call) => call.call),
    lostReferences: replayed.lostReferences,
    lostLines: replayed.lostLines,
  };
}

export function summarizePolicy(policy: string, rows: readonly RunSummary[]): PolicySummary {
  const ok = rows.filter((row) => row.error === undefined);
  const sum = (pick: (row: RunSummary) => number) => ok.reduce((total, row) => total + pick(row), 0);
  const references = sum((row) => row.references);
  return {
    policy,
    runs: ok.length,
    overflows: sum((row) => row.overflows),
    rescued: sum((row) => row.rescued),
    compactions: sum((row) => row.compactions),
    promptTokens: sum((row) => row.promptTokens),
    reusablePrefixTokens: sum((row) => row.reusablePrefixTokens),
    uncachedTokens: sum((row) => row.uncachedTokens),
    cost: sum((row) => row.cost),
    callCost: sum((row) => row.callCost),
    summaryCalls: sum((row) => row.summaryCalls),
    summaryPromptTokens: sum((row) => row.summaryPromptTokens),
    summaryCost: sum((row) => row.summaryCost),
    peakTokens: ok.reduce((peak, row) => Math.max(peak, row.peakTokens), 0),
    references,
    referenceRecall: references === 0 ? null : sum((row) => row.referencesVisible) / references,
    lineRecall: references === 0 ? null : sum((row) => row.linesVisible) / references,
    errors: rows.length - ok.length,
  };
}

function costsOf(replayed: ReplayedRun): Pick<RunSummary, "cost" | "callCost" | "summaryCalls" | "summaryPromptTokens" | "summaryUncachedTokens" | "summaryOutputTokens" | "summaryCost"> {
  const callCost = replayed.calls.reduce((total, call) => total + call.cost, 0);
  const summaries = replayed.summaryCalls;
  const sum = (pick: (call: (typeof summaries)[number]) => number) => summaries.reduce((total, call) => total + pick(call), 0);
  const summaryCost = sum((call) => call.cost);
  return {
    cost: callCost + summaryCost,
    callCost,
    summaryCalls: summaries.length,
    summaryPromptTokens: sum((call) => call.promptTokens),
    summaryUncachedTokens: sum((call) => call.uncachedTokens),
    summaryOutputTokens: sum((call) => call.outputTokens),
    summaryCost,
  };
}
