import { backpressureDelay, checkBackpressureSteps, defaultBackpressureSteps, type BackpressureStep } from "../context/budget/budget-options.js";
import type { ContextPolicy } from "../context/context-policy.js";
import type { CallGate } from "../context/policy-gates.js";
import type { SharedBudgetCrossing } from "./shared-budget-crossings.js";
import { abortableSleep } from "../loop/abortable-sleep.js";

export const sharedBudgetPolicyName = "shared-budget";

export interface SharedBudgetPolicyOptions {
  scope: string;
  /**
   * The share of the scope's limit spent by every run, and when it was read (ms on `now`'s clock).
   * A worker records it once per call (a step), so a run executed again after a crash neither reads
   * it again nor waits again.
   */
  readShare(): Promise<{ share: number; at: number }>;
  now(): number;
  /** The crossings the run's model calls found when they settled since the last call (taken: emptied). */
  takeCrossings(): SharedBudgetCrossing[];
  /** Delays before a call by the scope's spent share (default `defaultBackpressureSteps`, as one process's budget); false: none. */
  backpressure?: false | readonly BackpressureStep[];
}

/**
 * A shared budget scope's slow-down and warnings, as one process's budget policy gives them: before
 * each call, the scope's spent share (over every run and worker) picks a backpressure delay; after
 * each call, a threshold that call's usage took the scope across becomes a `budget_threshold`
 * warning (one run warns per threshold: the one whose call crossed it). The limit itself is kept by
 * the call's reservation (createDurableProvider), not here: it must be checked in the same statement
 * that takes the tokens.
 */
export function createSharedBudgetPolicy(options: SharedBudgetPolicyOptions): ContextPolicy {
  const steps = options.backpressure === false ? [] : checkBackpressureSteps(options.backpressure ?? defaultBackpressureSteps);
  return {
    name: sharedBudgetPolicyName,
    // A sub-agent's calls spend from the same scope through the same wrapped provider.
    inherit: "share",
    async beforeCall(): Promise<CallGate> {
      if (steps.length === 0) return { action: "allow" };
      const seen = await options.readShare();
      const delayMs = backpressureDelay(seen.share, steps);
      if (delayMs <= 0) return { action: "allow" };
      // Waits only what is left of the delay since the share was read: nothing on a replay.
      return { action: "wait", delayMs, share: seen.share, sleep: (milliseconds, signal) => abortableSleep(Math.max(0, seen.at + milliseconds - options.now()), signal) };
    },
    afterCall() {
      return options.takeCrossings().map((crossing) => ({ code: "budget_threshold" as const, message: describeCrossing(options.scope, crossing) }));
    },
  };
}

function describeCrossing(scope: string, crossing: SharedBudgetCrossing): string {
  const tokens = (count: number) => count.toLocaleString("en-US");
  return `The shared budget '${scope}' has spent ${Math.round(crossing.threshold * 100)}% of its limit (${tokens(crossing.spentTokens)} of ${tokens(crossing.limitTokens)} tokens, by every run that spends from it).`;
}
