import { getTokenCounter } from "../../tokens/get-token-counter.js";
import type { Budget, BudgetLevelStatus, BudgetOverrun, BudgetThresholdCrossing, RunBudgetRecord } from "../../types/index.js";
import type { ContextPolicy } from "../context-policy.js";
import type { CallGate, PolicyWarning } from "../policy-gates.js";

const estimator = getTokenCounter("estimate");

export const budgetPolicyName = "budget";

export interface BudgetPolicyOptions {
  /** Output tokens a call reserves when the request sets no `maxOutputTokens` (default 4 096). */
  assumedOutputTokens?: number;
}

/** The budget as a policy, with the budget it enforces (`budget.current()` is the running task). */
export interface BudgetPolicy extends ContextPolicy {
  readonly budget: Budget;
}

/**
 * Token and cost limits (`createBudget`) as a context policy: each run is a task level under the
 * budget; before every call the gate estimates it (the wire body's tokens plus the most output it
 * may produce), refuses when a `hard` level would go over, asks the budget's `confirm` when an
 * `approval` level would, warns once for a `soft` one, then asks the loop to wait out
 * backpressure. After the call its usage is charged. A child gets a level of its own under the
 * running task (`inherit: "copy"`): its calls count against the task and the session too.
 */
export function createBudgetPolicy(budget: Budget, options: BudgetPolicyOptions = {}): BudgetPolicy {
  let task: Budget | undefined;
  const running = () => task ?? budget;
  return {
    name: budgetPolicyName,
    budget,
    inherit: "copy",
    forChild: (child) => createBudgetPolicy(running().child(child.budget ?? {}, child.name), options),
    startRun() {
      task = budget.startTask();
      return { budget: toRunBudgetRecords(task.status()) };
    },
    async beforeCall(state): Promise<CallGate> {
      const level = running();
      const estimate = {
        // The serialised body over-counts a little (JSON keys and escapes): the safe side for a limit.
        promptTokens: estimator.count(state.body()),
        maxOutputTokens: state.request.settings?.maxOutputTokens ?? options.assumedOutputTokens ?? 4096,
        model: state.model,
      };
      const check = level.check(estimate);
      const warnings: PolicyWarning[] = level.takeSoftOverruns(check.overruns).map((overrun) => ({
        code: "budget_exceeded",
        message: `This call may take ${describeOverrun(overrun)}; the soft budget lets the run go on.`,
      }));
      if (check.action === "refuse") {
        const hard = check.overruns.filter((overrun) => overrun.status.mode === "hard" || overrun.status.mode === "approval");
        return refuse(`Stopped before a call that could take ${hard.map(describeOverrun).join(" and ")}. Raise the budget or start a new task.`, warnings);
      }
      if (check.action === "ask") {
        const asked = check.overruns.filter((overrun) => overrun.status.mode === "approval");
        const approved = level.confirm ? await level.confirm({ overruns: asked, estimate }) : false;
        if (!approved) {
          return refuse(`The call that could take ${asked.map(describeOverrun).join(" and ")} was not approved${level.confirm ? "" : " (no confirm callback was given to the budget)"}.`, warnings);
        }
        level.approve(asked);
      }
      if (check.delayMs > 0) return { action: "wait", delayMs: check.delayMs, share: check.share, warnings, ...(level.sleep ? { sleep: level.sleep } : {}) };
      return { action: "allow", warnings };
    },
    afterCall(usage, info) {
      return running()
        .charge(usage, info.model)
        .map((crossing) => ({ code: "budget_threshold", message: describeCrossing(crossing) }));
    },
  };
}

function refuse(message: string, warnings: PolicyWarning[]): CallGate {
  return { action: "refuse", stop: { stopReason: "budget_exceeded", error: { code: "budget_exceeded", message } }, warnings: [...warnings, { code: "budget_exceeded", message }] };
}

/** The task's levels as the run's start records them in the session. */
export function toRunBudgetRecords(statuses: readonly BudgetLevelStatus[]): RunBudgetRecord[] {
  return statuses.map((status) => ({
    level: status.level,
    ...(status.label !== undefined ? { label: status.label } : {}),
    ...(status.limits.tokens !== undefined ? { tokens: status.limits.tokens } : {}),
    ...(status.limits.costUsd !== undefined ? { costUsd: status.limits.costUsd } : {}),
    mode: status.mode,
    spentTokens: status.spent.tokens,
    spentCostUsd: status.spent.costUsd,
  }));
}

function levelName(status: BudgetLevelStatus): string {
  return status.label === undefined ? `the ${status.level}` : `the ${status.level} '${status.label}'`;
}

/** "the session to 6,191 tokens of its approval limit of 3,000 tokens": what a call could take, for a person. */
export function describeOverrun(overrun: BudgetOverrun): string {
  const amount = (value: number) => (overrun.dimension === "tokens" ? `${Math.round(value).toLocaleString("en-US")} tokens` : `$${value.toFixed(4)}`);
  return `${levelName(overrun.status)} to ${amount(overrun.projected)} of its ${overrun.status.mode} limit of ${amount(overrun.limit)}`;
}

function describeCrossing(crossing: BudgetThresholdCrossing): string {
  const { status } = crossing;
  const spent = crossing.dimension === "tokens" ? `${status.spent.tokens.toLocaleString("en-US")} of ${status.limits.tokens!.toLocaleString("en-US")} tokens` : `$${status.spent.costUsd.toFixed(4)} of $${status.limits.costUsd!.toFixed(4)}`;
  return `${levelName(status)[0]!.toUpperCase()}${levelName(status).slice(1)} has spent ${Math.round(crossing.threshold * 100)}% of its ${status.mode} budget (${spent}).`;
}
