import { ConfigError } from "../types/index.js";
import { longestTimerMs } from "../types/whole-number-option.js";

/** How often a worker says it is alive, when it takes another for dead, and how often it looks. */
export interface DurableWorkerTimings {
  heartbeatMs: number;
  staleAfterMs: number;
  watchdogMs: number;
}

/**
 * A worker's heartbeat must come well within `staleAfterMs`: otherwise the other workers take a live
 * worker for dead and run its runs while it still runs them (two writers of one session, and the runs
 * failed). By default it beats every 2 s, or every third of `staleAfterMs` when that is shorter
 * (`ctxkit worker --stale-after 1`); a caller's own `heartbeatMs` must leave room for one missed beat.
 */
export function durableWorkerTimings(options: { staleAfterMs?: number; heartbeatMs?: number }): DurableWorkerTimings {
  const staleAfterMs = options.staleAfterMs ?? 15_000;
  requireMilliseconds("staleAfterMs", staleAfterMs, 1_000);
  const heartbeatMs = options.heartbeatMs ?? Math.min(2_000, Math.floor(staleAfterMs / 3));
  requireMilliseconds("heartbeatMs", heartbeatMs, 1);
  if (staleAfterMs < 2 * heartbeatMs) {
    throw new ConfigError(
      "option_invalid",
      `staleAfterMs (${staleAfterMs}) must be at least twice heartbeatMs (${heartbeatMs}): a live worker's heartbeat would look stale, and the other workers would take its runs over while it runs them. Raise staleAfterMs, or lower heartbeatMs (left out, it is a third of staleAfterMs, at most 2 s).`,
    );
  }
  return { heartbeatMs, staleAfterMs: Math.ceil(staleAfterMs), watchdogMs: Math.max(500, Math.floor(staleAfterMs / 3)) };
}

function requireMilliseconds(name: string, value: number, least: number): void {
  if (typeof value !== "number" || !Number.isFinite(value) || value < least || value > longestTimerMs) {
    throw new ConfigError("option_invalid", `${name} must be a number of milliseconds from ${least} to ${longestTimerMs} (24.8 days), got ${String(value)}.`);
  }
}
