import { getTokenCounter } from "../tokens/get-token-counter.js";
import type { AgentEvent, Budget, BudgetLevelStatus, BudgetOverrun, BudgetThresholdCrossing, ModelRequest, RunBudgetRecord, RunError } from "../types/index.js";
import type { LoopState } from "./loop-state.js";

const estimator = getTokenCounter("estimate");

/**
 * The budget gate before a call: estimate the call (the wire body's tokens plus the most output it
 * may produce), refuse it when a `hard` level would go over, ask when an `approval` level would,
 * warn once for a `soft` one, then wait out backpressure. Returns the error that ends the run, if any.
 */
export async function* enforceBudget(state: LoopState, request: ModelRequest, turn: number, signal: AbortSignal): AsyncGenerator<AgentEvent, RunError | undefined> {
  const budget = state.budget;
  if (!budget) return undefined;
  const { provider } = state.options;
  const estimate = {
    // The serialised body over-counts a little (JSON keys and escapes): the safe side for a limit.
    promptTokens: estimator.count(provider.serialize(request).body),
    maxOutputTokens: request.settings?.maxOutputTokens ?? state.options.assumedOutputTokens ?? 4096,
    model: provider.model,
  };
  const check = budget.check(estimate);
  for (const overrun of budget.takeSoftOverruns(check.overruns)) {
    yield { type: "warning", code: "budget_exceeded", message: `This call may take ${describeOverrun(overrun)}; the soft budget lets the run go on.` };
  }
  if (check.action === "refuse") {
    const hard = check.overruns.filter((overrun) => overrun.status.mode === "hard" || overrun.status.mode === "approval");
    return { code: "budget_exceeded", message: `Stopped before a call that could take ${hard.map(describeOverrun).join(" and ")}. Raise the budget or start a new task.` };
  }
  if (check.action === "ask") {
    const asked = check.overruns.filter((overrun) => overrun.status.mode === "approval");
    const approved = budget.confirm ? await budget.confirm({ overruns: asked, estimate }) : false;
    if (!approved) {
      return { code: "budget_exceeded", message: `The call that could take ${asked.map(describeOverrun).join(" and ")} was not approved${budget.confirm ? "" : " (no confirm callback was given to the budget)"}.` };
    }
    budget.approve(asked);
  }
  if (check.delayMs > 0 && !signal.aborted) {
    yield { type: "backpressure", turn, delayMs: check.delayMs, share: check.share };
    await (budget.sleep ?? sleep)(check.delayMs, signal);
  }
  return undefined;
}

/** Counts a call's usage and turns the thresholds it crossed into warnings. */
export function chargeBudget(budget: Budget | undefined, usage: Parameters<Budget["charge"]>[0], model: string): AgentEvent[] {
  if (!budget) return [];
  return budget.charge(usage, model).map((crossing) => ({ type: "warning", code: "budget_threshold", message: describeCrossing(crossing) }));
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

function describeOverrun(overrun: BudgetOverrun): string {
  const amount = (value: number) => (overrun.dimension === "tokens" ? `${Math.round(value).toLocaleString("en-US")} tokens` : `$${value.toFixed(4)}`);
  return `${levelName(overrun.status)} to ${amount(overrun.projected)} of its ${overrun.status.mode} limit of ${amount(overrun.limit)}`;
}

function describeCrossing(crossing: BudgetThresholdCrossing): string {
  const { status } = crossing;
  const spent = crossing.dimension === "tokens" ? `${status.spent.tokens.toLocaleString("en-US")} of ${status.limits.tokens!.toLocaleString("en-US")} tokens` : `$${status.spent.costUsd.toFixed(4)} of $${status.limits.costUsd!.toFixed(4)}`;
  return `${levelName(status)[0]!.toUpperCase()}${levelName(status).slice(1)} has spent ${Math.round(crossing.threshold * 100)}% of its ${status.mode} budget (${spent}).`;
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
