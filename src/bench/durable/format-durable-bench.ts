import { formatTextTable } from "../text-table.js";
import type { DurableBenchResult } from "./durable-bench-result.js";
import { benchMaxCallTokens } from "./bench-durable-agent.js";

/** The bench's table: the run with kills, then the throughput at 1, 2 and 4 workers. */
export function formatDurableBench(result: DurableBenchResult): string {
  const { settings } = result;
  const rows: Array<[string, string]> = [
    ["runs", String(result.runs)],
    ["completed", String(result.completed)],
    ["lost", String(result.lost)],
    ["resumed (started again after a kill)", String(result.resumed)],
    ["worker kills (SIGKILL)", String(result.kills)],
    ["duplicate model calls (allowed, counted)", String(result.duplicateModelCalls)],
    ["duplicate side effects", String(result.duplicateSideEffects)],
    ["interrupted calls answered: rerun / skip", `${result.confirmations.rerun} / ${result.confirmations.skip}`],
    ["recovery p95", `${result.recoverySecondsP95.toFixed(1)} s`],
    ["run p50 / p95", `${(result.runMsP50 / 1000).toFixed(1)} s / ${(result.runMsP95 / 1000).toFixed(1)} s`],
    ["runs per minute", result.runsPerMinute.toFixed(0)],
  ];
  const count = (value: number) => value.toLocaleString("en-US");
  const budgetRows = result.budgetPhases.map((phase) => [
    phase.killEveryMs > 0 ? `every ${phase.killEveryMs / 1000} s (${phase.kills})` : "none",
    phase.useFactor > 1 ? `${phase.useFactor}× reserved` : "≤ reserved",
    `${phase.completed} / ${phase.refused} of ${phase.runs}${formatOtherOutcomes(phase.otherOutcomes)}`,
    count(phase.limitTokens),
    count(phase.spentTokens),
    count(phase.billedTokens),
    `${count(phase.overrunTokens)} ${phase.overrunTokens <= result.budgetOverrunBoundTokens ? "within" : "OVER"}`,
  ]);
  const scaling = result.scaling.map((entry) => [String(entry.workers), entry.runsPerMinute.toFixed(0), `${entry.speedup.toFixed(2)}×`]);
  return (
    `durable runs: ${settings.workers} workers × ${settings.concurrency} runs each, ${settings.runs} runs of ${settings.steps} tool steps, ` +
    `model latency ${settings.modelLatencyMs} ms, a worker killed every ${settings.killEveryMs / 1000} s (stale after ${settings.staleAfterMs / 1000} s)\n\n` +
    `${formatTextTable(["", "value"], rows)}\n\nshared budget: ${settings.budgetRuns} runs needing about twice the limit, on ${settings.workers} workers; ` +
    `billed = every model call attempt as it starts; overrun = billed past the limit, bound ${count(result.budgetOverrunBoundTokens)} ` +
    `(${settings.workers} × ${settings.concurrency} calls in flight — this agent has no sub-agents or compaction calls, which would add calls in flight — ` +
    `× ${count(benchMaxCallTokens)} tokens a call at most). A "≤ reserved" model never uses more than its call reserved (by construction), ` +
    `so its overrun is 0 and shows the bookkeeping holding, not the bound approached; the "× reserved" model uses more, so its overrun is measured.\n\n` +
    `${formatTextTable(["kills", "model use", "completed / refused", "limit", "ledger spent", "billed", "overrun"], budgetRows)}\n\nscaling without kills (${settings.scalingRuns} runs each):\n\n` +
    `${formatTextTable(["workers", "runs/min", "speedup"], scaling)}\n`
  );
}

/** " (+1 running, +2 failed (provider_error))", or "" when every run completed or was refused. */
function formatOtherOutcomes(outcomes: Record<string, number>): string {
  const parts = Object.entries(outcomes).map(([outcome, count]) => `+${count} ${outcome}`);
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`;
}
