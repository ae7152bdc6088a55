import type { ToolCallDecision, ToolCallInfo } from "../loop/agent-options.js";
import type { BudgetApprovalRequest } from "../types/index.js";
import type { DurableRunContext } from "./durable-run-context.js";
import type { PausedCall } from "./durable-run-record.js";
import { describeOverrun } from "../context/budget/create-budget-policy.js";

/** How long a paused run waits for `ctxkit runs resume` before it goes on as if declined (a week). */
const answerWaitSeconds = 7 * 24 * 3600;

/** The answer `ctxkit runs resume` sends: run the call (approve) or not. */
export type PersonDecision = "rerun" | "skip";

/**
 * Pauses the run as `needs_confirmation` until a person answers with `ctxkit runs resume`, durably:
 * the worker may stop meanwhile and another one waits on. Undefined when no one answered within a
 * week, or when the question comes from inside a step (a sub-agent's call), where no run can wait.
 */
export async function askPerson(context: DurableRunContext, paused: PausedCall): Promise<PersonDecision | undefined> {
  if (context.inStep()) return undefined;
  // Plain writes, not steps: a worker that takes the run over marks it paused again while it waits.
  await context.tables.setPaused(context.runId, paused);
  const decision = await context.receive<PersonDecision>("confirmation", answerWaitSeconds);
  await context.tables.setPaused(context.runId, null);
  return decision;
}

/**
 * The confirmations of a run on a worker: where `ctxkit run` asks at the terminal, the run pauses and
 * waits for `ctxkit runs resume <id> --approve | --decline`. Policies decide first, as in one process
 * (allow entries and --yes approve without asking), so only real questions pause.
 */
export function createDurableConfirmations(context: DurableRunContext) {
  let questions = 0;
  return {
    async confirmToolCall(call: ToolCallInfo): Promise<ToolCallDecision> {
      if (context.inStep()) return { approved: false, reason: "A sub-agent's call cannot wait for a person in a durable run; approve such calls ahead in the run's settings (`yes`, or `allow` entries)." };
      const reasons = call.guard?.reasons ?? call.asked?.reasons ?? [];
      const decision = await askPerson(context, { tool: call.name, callKey: `confirm-${questions++}`, reason: "confirmation", arguments: call.argumentsText.slice(0, 2_000), ...(reasons.length > 0 ? { why: reasons.join("; ").slice(0, 1_000) } : {}) });
      if (decision === "rerun") return { approved: true, ...(call.guard ? { argumentsHash: call.guard.argumentsHash } : {}) };
      return { approved: false, reason: decision === "skip" ? "The person declined this call." : "No one answered the question about this call." };
    },
    async confirmBudget(request: BudgetApprovalRequest): Promise<boolean> {
      // For the person who answers (`runs show` prints it), in the words `ctxkit run`'s question uses.
      const over = `a call could take ${request.overruns.map(describeOverrun).join(" and ")}`.slice(0, 1_000);
      return (await askPerson(context, { tool: "budget", callKey: `budget-${questions++}`, reason: "budget", why: over })) === "rerun";
    },
  };
}
