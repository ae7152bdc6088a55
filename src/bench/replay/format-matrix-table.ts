import { formatTextTable } from "../text-table.js";
import type { ReplayReport } from "./replay-bench.js";
import type { PolicySummary } from "./replay-summary.js";
import type { ReplayHalf } from "./split-runs.js";

/**
 * The cost of each row against the cheapest of `comparators` in the same format, window and half
 * that overflowed on no call (the yardstick); undefined when none of them managed that.
 */
export function cheapestCleanComparatorCost(rows: readonly PolicySummary[], comparators: readonly string[]): number | undefined {
  const clean = rows.filter((row) => comparators.includes(row.policy) && row.runs > 0 && row.overflows === 0 && row.errors === 0);
  return clean.length === 0 ? undefined : Math.min(...clean.map((row) => row.cost));
}

/**
 * One table over formats × windows × halves × policies: runs, overflows, summary calls, the cost
 * without and with summaries, that cost against the cheapest clean comparator, and both recalls.
 */
export function formatMatrixTable(reports: readonly ReplayReport[], halves: readonly ReplayHalf[], comparators: readonly string[]): string {
  const rows: string[][] = [];
  const formats = [...new Set(reports.flatMap((report) => Object.keys(report.formats)))].sort();
  for (const format of formats) {
    for (const report of reports) {
      const entry = report.formats[format];
      if (entry === undefined) continue;
      for (const half of halves) {
        const group = entry.halves[half];
        if (group.every((row) => row.runs === 0)) continue;
        const yardstick = cheapestCleanComparatorCost(group, comparators);
        for (const row of group) {
          rows.push([
            format,
            report.contextWindow.toLocaleString("en-US"),
            half,
            row.policy,
            String(row.runs),
            String(row.overflows),
            String(row.summaryCalls),
            dollars(row.callCost),
            dollars(row.cost),
            yardstick === undefined || yardstick === 0 ? "—" : `${(row.cost / yardstick).toFixed(2)}×`,
            recall(row.referenceRecall),
            recall(row.lineRecall),
          ]);
        }
      }
    }
  }
  const header = ["format", "window", "half", "policy", "runs", "overflows", "summaries", "cost w/o summaries", "cost", "vs cheapest clean comparator", "reference recall", "line recall"];
  return `${formatTextTable(header, rows, { leftColumns: [0, 2, 3] })}\n`;
}

function recall(value: number | null): string {
  return value === null ? "—" : value.toFixed(3);
}

function dollars(value: number): string {
  return `$${value.toFixed(value >= 100 ? 2 : 4)}`;
}
