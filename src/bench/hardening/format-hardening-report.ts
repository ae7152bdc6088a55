import { formatInteger, formatTextTable } from "../text-table.js";
import { failureClasses } from "./hardening-trial.js";
import type { HardeningBenchResult } from "./run-hardening-bench.js";

const columnTitles = { freezes: "freezes", crashes: "crashes", escapes: "escapes", silentMerges: "silent merges", lostRecords: "lost records" } as const;

/** The table of failures per battery, then the named original cases and any failure described. */
export function formatHardeningReport(result: HardeningBenchResult): string {
  const header = ["battery", "trials", ...failureClasses.map((failure) => columnTitles[failure]), "worst loop block", "time"];
  const rows = result.batteries.map((battery) => [
    battery.battery,
    formatInteger(battery.trials),
    ...failureClasses.map((failure) => formatInteger(battery[failure])),
    `${formatInteger(battery.maxEventLoopLagMs)} ms`,
    `${(battery.durationMs / 1000).toFixed(1)} s`,
  ]);
  const footer = ["total", formatInteger(result.totals.trials), ...failureClasses.map((failure) => formatInteger(result.totals[failure])), "", ""];
  const lines = [`Hardening batteries (seed ${result.seed})`, "", formatTextTable(header, rows, { footer }), ""];
  const cases = result.batteries.flatMap((battery) => battery.cases.map((entry) => ({ ...entry, battery: battery.battery })));
  if (cases.length > 0) {
    lines.push(`Original cases: ${cases.filter((entry) => entry.passed).length} of ${cases.length} held`);
    for (const entry of cases) lines.push(`  ${entry.passed ? "ok  " : "FAIL"} ${entry.name} — ${entry.detail.replace(/\s+/g, " ").slice(0, 140)}`);
    lines.push("");
  }
  for (const battery of result.batteries) {
    const outcomes = Object.entries(battery.outcomes).map(([name, count]) => `${name} ${count}`);
    if (outcomes.length > 0) lines.push(`${battery.battery}: ${outcomes.join(", ")}`);
    for (const note of battery.notes ?? []) lines.push(`  ${note}`);
  }
  const failures = result.batteries.flatMap((battery) => battery.failures.map((failure) => `  ${battery.battery}: ${failure}`));
  if (failures.length > 0) lines.push("", "Failures found:", ...failures);
  return `${lines.join("\n")}\n`;
}
