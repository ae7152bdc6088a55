import { formatTextTable } from "../text-table.js";
import type { ViewTiming } from "./measure-view-performance.js";

const seconds = (value: number | undefined) => (value === undefined ? "—" : `${(value / 1000).toFixed(2)} s`);
const kilobytes = (value: number) => `${Math.round(value / 1024).toLocaleString("en-US")} KB`;

/** One row per opening, then the median; times in seconds. */
export function formatViewPerformance(timings: readonly ViewTiming[], label: string): string {
  const header = [label, "server ready", "page: timeline drawn", "open", "page: prompt shown", "select a call", "GET timeline", "GET call", "exact counts in"];
  const row = (label: string, timing: ViewTiming) => [
    label,
    seconds(timing.serverReadyMs),
    seconds(timing.pageTimelineMs),
    seconds(timing.openMs),
    seconds(timing.pagePromptMs),
    seconds(timing.selectCallMs),
    `${seconds(timing.timelineApiMs)} (${kilobytes(timing.timelineBytes)})`,
    `${seconds(timing.callApiMs)} (${kilobytes(timing.callBytes)})`,
    seconds(timing.exactCountsMs),
  ];
  const rows = timings.map((timing, index) => row(`#${index + 1}`, timing));
  return formatTextTable(header, rows, { footer: row("median", medianTiming(timings)) });
}

export function medianTiming(timings: readonly ViewTiming[]): ViewTiming {
  const median = (pick: (timing: ViewTiming) => number | undefined): number | undefined => {
    const values = timings.map(pick).filter((value): value is number => value !== undefined).sort((left, right) => left - right);
    return values.length === 0 ? undefined : values[Math.floor((values.length - 1) / 2)];
  };
  const result: ViewTiming = {
    serverReadyMs: median((timing) => timing.serverReadyMs)!,
    timelineApiMs: median((timing) => timing.timelineApiMs)!,
    timelineBytes: median((timing) => timing.timelineBytes)!,
    callApiMs: median((timing) => timing.callApiMs)!,
    callBytes: median((timing) => timing.callBytes)!,
  };
  for (const key of ["pageTimelineMs", "pagePromptMs", "selectCallMs", "openMs", "exactCountsMs"] as const) {
    const value = median((timing) => timing[key]);
    if (value !== undefined) result[key] = value;
  }
  return result;
}
