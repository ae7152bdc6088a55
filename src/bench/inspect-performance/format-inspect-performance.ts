import { formatTextTable } from "../text-table.js";
import type { InspectTiming } from "./measure-inspect-performance.js";

/** The benchmark's table: total time, calls, and per-call time by quarter of each run. */
export function formatInspectPerformance(timings: readonly InspectTiming[]): string {
  const header = ["transcript", "calls", "final prompt", "total s", "ms/call", "Q1 ms/call (ctx)", "Q2", "Q3", "Q4", "segment hits"];
  const rows = timings.map((timing) => [
    timing.name,
    String(timing.calls),
    timing.finalPromptTokens.toLocaleString("en-US"),
    (timing.totalMs / 1000).toFixed(2),
    timing.msPerCall.toFixed(2),
    ...timing.quarters.map((quarter) => `${quarter.msPerCall.toFixed(2)} (${Math.round(quarter.meanPromptTokens / 1000)}k)`),
    `${(timing.segmentCacheHitRate * 100).toFixed(1)}%`,
  ]);
  return formatTextTable(header, rows);
}
