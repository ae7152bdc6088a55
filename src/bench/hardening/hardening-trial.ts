import { monitorEventLoopDelay } from "node:perf_hooks";
import { CtxkitError } from "../../types/index.js";

/** The failure classes every battery counts; a fixed build reports 0 in each. */
export const failureClasses = ["freezes", "crashes", "escapes", "silentMerges", "lostRecords"] as const;
export type FailureClass = (typeof failureClasses)[number];

export interface NamedCase {
  name: string;
  passed: boolean;
  detail: string;
}

export interface BatteryResult {
  battery: string;
  trials: number;
  freezes: number;
  crashes: number;
  escapes: number;
  silentMerges: number;
  lostRecords: number;
  /** What the trials ended as when nothing failed (refused, warned, error result…), by name. */
  outcomes: Record<string, number>;
  /** The longest the event loop was blocked in any trial of this process (ms). */
  maxEventLoopLagMs: number;
  durationMs: number;
  /** The original failures, each re-run as it was found. */
  cases: NamedCase[];
  /** The first failures, described, so a run that finds one says where to look. */
  failures: string[];
  /** Measurements worth a line under the table (the big-event battery's timings). */
  notes?: string[];
}

export interface TrialOutcome<T> {
  value?: T;
  error?: unknown;
  frozen: boolean;
  durationMs: number;
  lagMs: number;
}

/** A trial is frozen when it outlives its bound or blocks the event loop this long (abort and Ctrl-C could not act). */
export const blockedLoopLimitMs = 2_000;

/**
 * Runs one trial under a watchdog: its wall time, and the event loop's worst delay while it ran
 * (a synchronous stall — a backtracking regex, a huge string built in one go — shows up there even
 * when the trial ends). A trial still running at `boundMs` is left behind and counted as frozen.
 */
export async function runTrial<T>(work: () => Promise<T>, boundMs: number): Promise<TrialOutcome<T>> {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<"bound">((resolve) => {
    timer = setTimeout(() => resolve("bound"), boundMs);
  });
  try {
    const settled = await Promise.race([work().then((value) => ({ value }), (error: unknown) => ({ error })), bound]);
    const durationMs = performance.now() - started;
    const lagMs = histogram.max / 1e6;
    if (settled === "bound") return { frozen: true, durationMs, lagMs };
    return { ...settled, frozen: lagMs > blockedLoopLimitMs, durationMs, lagMs };
  } finally {
    clearTimeout(timer);
    histogram.disable();
  }
}

/** Counts one battery's trials and failures as they come in. */
export class BatteryTally {
  private readonly result: BatteryResult;
  private readonly started = performance.now();

  constructor(battery: string) {
    this.result = { battery, trials: 0, freezes: 0, crashes: 0, escapes: 0, silentMerges: 0, lostRecords: 0, outcomes: {}, maxEventLoopLagMs: 0, durationMs: 0, cases: [], failures: [] };
  }

  /** Books a finished trial: a freeze, or an error that is not one of ctxkit's typed errors (a crash). */
  trial(outcome: TrialOutcome<unknown>, label: string): void {
    this.result.trials += 1;
    this.result.maxEventLoopLagMs = Math.max(this.result.maxEventLoopLagMs, Math.round(outcome.lagMs));
    if (outcome.frozen) this.fail("freezes", `${label}: ran ${Math.round(outcome.durationMs)} ms, event loop blocked up to ${Math.round(outcome.lagMs)} ms`);
    if (outcome.error !== undefined && !(outcome.error instanceof CtxkitError)) this.fail("crashes", `${label}: ${describeError(outcome.error)}`);
  }

  fail(failure: FailureClass, detail: string, count = 1): void {
    this.result[failure] += count;
    if (this.result.failures.length < 10) this.result.failures.push(`${failure}: ${detail}`);
  }

  outcome(name: string): void {
    this.result.outcomes[name] = (this.result.outcomes[name] ?? 0) + 1;
  }

  namedCase(name: string, passed: boolean, detail: string): void {
    this.result.cases.push({ name, passed, detail });
  }

  note(text: string): void {
    (this.result.notes ??= []).push(text);
  }

  finish(): BatteryResult {
    return { ...this.result, durationMs: Math.round(performance.now() - this.started) };
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.slice(0, 300)}`;
  return String(error).slice(0, 300);
}
