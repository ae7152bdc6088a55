/** How many times the budget a conversion may take on the wall clock while it stays within its processor time. */
export const conversionWallClockFactor = 6;

export type ConversionTimeVerdict = { over: false; checkAgainInMs: number } | { over: true; message: string };

const seconds = (milliseconds: number) => `${milliseconds / 1000} s`;
const roundedSeconds = (milliseconds: number) => `${Math.round(milliseconds / 100) / 10} s`;

/**
 * Whether a page's conversion has used up its budget. Where the converter thread's processor time is known
 * (`cpuMs`), the budget is processor time, so a machine busy with other work does not refuse a real page,
 * with the wall clock capped at `conversionWallClockFactor` times the budget; elsewhere it is wall-clock time.
 */
export function judgeConversionTime(budgetMs: number, wallMs: number, cpuMs: number | undefined): ConversionTimeVerdict {
  const stalled = "it looks built to stall the reader, so it was not converted.";
  if (cpuMs === undefined || !Number.isFinite(cpuMs)) {
    if (wallMs >= budgetMs) return { over: true, message: `Converting the page took longer than ${seconds(budgetMs)}, which real pages do not; ${stalled}` };
    return { over: false, checkAgainInMs: budgetMs - wallMs };
  }
  if (cpuMs >= budgetMs) {
    return { over: true, message: `Converting the page took longer than ${seconds(budgetMs)} of processor time, which real pages do not; ${stalled}` };
  }
  const wallCapMs = budgetMs * conversionWallClockFactor;
  if (wallMs >= wallCapMs) {
    return {
      over: true,
      message: `Converting the page took longer than ${seconds(wallCapMs)} (${roundedSeconds(cpuMs)} of processor time: the machine is very busy, or the page stalls the reader), so it was not converted.`,
    };
  }
  return { over: false, checkAgainInMs: Math.max(10, Math.min(budgetMs - cpuMs, wallCapMs - wallMs)) };
}
