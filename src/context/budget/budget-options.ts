import { ConfigError, type BudgetApprovalRequest, type BudgetLimits, type BudgetSpend, type Usage } from "../../types/index.js";

/** Wait `delayMs` before a call once the tightest level has spent `share` of its limit. */
export interface BackpressureStep {
  share: number;
  delayMs: number;
}

/**
 * The Shannon chapter's steps: 50 ms at 80 %, 300 ms at 85 %, 750 ms at 90 %, 1.5 s at 95 % — a
 * budget running out slows the agent down first (the person notices) instead of only cutting it off.
 */
export const defaultBackpressureSteps: readonly BackpressureStep[] = [
  { share: 0.8, delayMs: 50 },
  { share: 0.85, delayMs: 300 },
  { share: 0.9, delayMs: 750 },
  { share: 0.95, delayMs: 1500 },
];

export const defaultBudgetThresholds: readonly number[] = [0.8];

export interface BudgetOptions {
  /** The session's limits: everything the agent spends, across runs and restarts (see `spent`). */
  session?: BudgetLimits;
  /** Each task's limits (one `agent.run`). */
  task?: BudgetLimits;
  /** What the session spent before (a resumed session's recorded usage), counted against `session`. */
  spent?: BudgetSpend;
  /** Shares at which a level warns, once each (default [0.8]). */
  thresholds?: readonly number[];
  /** Delays before a call by the tightest level's share (default `defaultBackpressureSteps`); false: none. */
  backpressure?: false | readonly BackpressureStep[];
  /**
   * One call's cost in USD (with `ctxkit`'s catalog: `estimateCost(usage, findModelPricing(model))`).
   * Required for cost limits; before a call it is asked with the whole estimate as written to the
   * cache (the dearest price a prompt token can have), so a check never under-estimates.
   */
  costOf?: (usage: Usage, model: string) => number;
  /** Asked before a call that would exceed an `approval` level. Without it such calls are refused. */
  confirm?: (request: BudgetApprovalRequest) => Promise<boolean>;
  /** Waits out backpressure; default a timer. Pass a virtual clock's sleep in tests. */
  sleep?: (milliseconds: number, signal: AbortSignal) => Promise<void>;
}

/** Checks limits where they are given, so a typo fails before any call. */
export function checkBudgetLimits(limits: BudgetLimits | undefined, name: string, hasPrices: boolean): void {
  if (limits === undefined) return;
  if (limits.tokens !== undefined && !(Number.isFinite(limits.tokens) && limits.tokens > 0)) {
    throw new ConfigError("option_invalid", `The ${name} budget's tokens must be a positive number, got ${String(limits.tokens)}.`);
  }
  if (limits.costUsd !== undefined && !(Number.isFinite(limits.costUsd) && limits.costUsd > 0)) {
    throw new ConfigError("option_invalid", `The ${name} budget's costUsd must be a positive number, got ${String(limits.costUsd)}.`);
  }
  if (limits.mode !== undefined && !["hard", "soft", "approval"].includes(limits.mode)) {
    throw new ConfigError("option_invalid", `The ${name} budget's mode must be "hard", "soft" or "approval", got ${JSON.stringify(limits.mode)}.`);
  }
  if (limits.costUsd !== undefined && !hasPrices) {
    throw new ConfigError("option_invalid", `The ${name} budget has a cost limit but no prices: pass costOf to createBudget (e.g. estimateCost with findModelPricing).`);
  }
}

export function checkBackpressureSteps(steps: readonly BackpressureStep[]): BackpressureStep[] {
  for (const step of steps) {
    if (!(step.share >= 0 && step.share <= 1 && step.delayMs >= 0)) {
      throw new ConfigError("option_invalid", `A backpressure step needs a share from 0 to 1 and a delay of 0 ms or more, got ${JSON.stringify(step)}.`);
    }
  }
  return [...steps].sort((left, right) => left.share - right.share);
}

/** The delay of the highest step the share has reached (0 below the first). */
export function backpressureDelay(share: number, steps: readonly BackpressureStep[]): number {
  let delay = 0;
  for (const step of steps) if (share >= step.share) delay = step.delayMs;
  return delay;
}
