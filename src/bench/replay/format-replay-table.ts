import { formatTextTable } from "../text-table.js";
import type { PolicySummary, RunSummary } from "./replay-summary.js";
import { replayHalves, type ReplayHalf } from "./split-runs.js";

type Cell = string | number;

/** The comparison table: one row per policy, or per policy and half when `halves` are given. */
export function formatPolicyTable(policies: readonly PolicySummary[], halves?: Partial<Record<ReplayHalf, readonly PolicySummary[]>>): string {
  const split: Array<[string, readonly PolicySummary[]]> = halves === undefined ? [] : replayHalves.flatMap((half) => (halves[half] ? [[half, halves[half]!] as [string, readonly PolicySummary[]]] : []));
  // A half no run fell into (one transcript replayed: it goes to the tune half) would be a row of zeros per policy.
  const filled = split.filter(([, summaries]) => summaries.some((row) => row.runs > 0 || row.errors > 0));
  const groups: Array<[string, readonly PolicySummary[]]> = halves === undefined ? [["all", policies]] : filled.length > 0 ? filled : split;
  const rows = policies.flatMap((policy) => groups.flatMap(([half, summaries]) => summaries.filter((row) => row.policy === policy.policy).map((row) => [half, row] as const)));
  return formatTable(
    ["policy", "half", "runs", "overflows", "rescued", "compactions", "prompt tokens", "uncached tokens", "summaries", "cost w/o summaries", "cost", "peak tokens", "reference recall", "line recall"],
    rows.map(([half, row]) => [
      row.policy,
      half,
      row.errors > 0 ? `${row.runs} (${row.errors} failed)` : row.runs,
      row.overflows,
      row.rescued,
      row.compactions,
      row.promptTokens,
      row.uncachedTokens,
      row.summaryCalls,
      dollars(row.callCost),
      dollars(row.cost),
      row.peakTokens,
      recall(row.referenceRecall, row.references),
      recall(row.lineRecall, row.references),
    ]),
  );
}

/** Per-run rows (`--verbose`), grouped by run. */
export function formatRunTable(runs: readonly RunSummary[]): string {
  return formatTable(
    ["run", "policy", "half", "calls", "overflows", "compactions", "prompt tokens", "uncached tokens", "summaries", "cost w/o summaries", "cost", "peak tokens", "reference recall", "line recall"],
    runs.map((row) =>
      row.error !== undefined
        ? [row.run, row.policy, row.half ?? "", `failed: ${row.error.slice(0, 80)}`, "", "", "", "", "", "", "", "", "", ""]
        : [row.run, row.policy, row.half ?? "", row.calls, row.overflows, row.compactions, row.promptTokens, row.uncachedTokens, row.summaryCalls, dollars(row.callCost), dollars(row.cost), row.peakTokens, recall(row.referenceRecall, row.references), recall(row.lineRecall, row.references)],
    ),
  );
}

function recall(value: number | null, pairs: number): string {
  return value === null ? "— (0 pairs)" : `${value.toFixed(3)} (${pairs} pairs)`;
}

function dollars(value: number): string {
  return `$${value.toFixed(value >= 100 ? 2 : 4)}`;
}

/** Text columns left-aligned, numbers right-aligned with thousands separators. */
function formatTable(header: readonly string[], rows: ReadonlyArray<readonly Cell[]>): string {
  const text = rows.map((row) => row.map((cell) => (typeof cell === "number" ? cell.toLocaleString("en-US") : cell)));
  const isNumeric = (column: number) => rows.some((row) => typeof row[column] === "number" || /^\$|^\d/.test(String(row[column] ?? "")));
  const leftColumns = header.flatMap((_, column) => (column > 0 && isNumeric(column) ? [] : [column]));
  return `${formatTextTable(header, text, { leftColumns })}\n`;
}
