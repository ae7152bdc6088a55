import { longestTimerMs } from "../types/whole-number-option.js";

/**
 * A timer for any delay, however long: a run's deadline may be weeks away (`submit --timeout`), and
 * a plain setTimeout of more than 24.8 days fires at once — the run failed with run_timeout as it started.
 */
export function startLongTimer(callback: () => void, delayMs: number): { clear(): void } {
  let timer: NodeJS.Timeout;
  const arm = (left: number) => {
    timer = setTimeout(() => (left > longestTimerMs ? arm(left - longestTimerMs) : callback()), Math.min(left, longestTimerMs));
  };
  arm(Math.max(0, delayMs));
  return { clear: () => clearTimeout(timer) };
}
