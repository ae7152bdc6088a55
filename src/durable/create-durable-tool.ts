import type { Tool, ToolErrorKind, ToolOutput } from "../types/index.js";
import { ConfigError } from "../types/index.js";
import { ToolError } from "../types/tool-error.js";
import type { DurableRunContext } from "./durable-run-context.js";
import { askPerson } from "./durable-confirmation.js";


type StepOutcome =
  | { kind: "done"; output: ToolOutput; at: number }
  /** `stopped`: the loop's tool timeout stopped the call (see stoppedByLoop). */
  | { kind: "threw"; message: string; toolErrorKind?: ToolErrorKind; stopped?: true; at: number }
  | { kind: "interrupted"; at: number };

/**
 * A tool as a run's tool calls are made on a worker: each call is one DBOS step (replayed after a
 * crash). A call that changes the world (risk write, exec or send) and is not declared idempotent is
 * recorded as started before it runs; if a crash leaves it started but unfinished, it is never run
 * again silently: the run pauses as `needs_confirmation` until a person answers (DurableClient's
 * `resume(id, "rerun" | "skip")`; at the CLI `ctxkit runs resume <id> --approve | --decline`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
export function createDurableTool(tool: Tool<any>, context: DurableRunContext, sequence: { next(): number }): Tool<any> {
  const risk = tool.risk ?? (tool.parallelSafe ? "read" : "write");
  const atMostOnce = risk !== "read" && tool.idempotent !== true;
  return {
    ...tool,
    async execute(args, toolContext) {
      // Inside another call's step (a sub-agent's tool): its step would run afresh whenever that call
      // is executed again, with ids from model calls that are not checkpointed there, so a started
      // side effect could not be recognised and would run twice. Refused: at-most-once needs a run's own calls.
      if (context.scopes.current()) {
        throw new ConfigError(
          "option_invalid",
          `The durable tool '${tool.name}' was called inside another tool call (a sub-agent's, say); only a run's own tool calls can be steps. Give the sub-agent's definition the tool itself, not the one the durable assembly's wrapTool returned.`,
        );
      }
      const number = sequence.next();
      // The at-most-once row's key keeps the model's whole id, as the rows of runs already in flight have it.
      const callKey = `tool-${number}-${toolContext.toolCallId}`;
      // What a sub-agent this call runs keys its model calls under (`tool-3-call_x/model-0`): cut, as step names are.
      const scopeKey = `tool-${number}-${toolCallId(toolContext)}`;
      const attempt = (confirmed: boolean) =>
        // The call's id is in the step's name: DBOS compares a replayed step's name with the recorded
        // one, so calls run in parallel that start in another order after a crash fail the run
        // instead of swapping their results. (The model's id, cut: hostile input.)
        context.step(`tool:${tool.name}:${toolCallId(toolContext)}`, async (): Promise<StepOutcome> => {
          if (atMostOnce && !confirmed) {
            const state = await context.tables.startToolCall(context.runId, callKey, tool.name, context.executorId);
            if (state === "interrupted" || state === "finished") return { kind: "interrupted", at: context.now() };
          }
          let outcome: StepOutcome;
          try {
            // Inside the call's scope: a sub-agent it runs keys its model calls under this call.
            const result = await stoppedByLoop(context.scopes.within(scopeKey, async () => tool.execute(args, toolContext)), toolContext.signal);
            outcome = { kind: "done", output: typeof result === "string" ? { content: result } : result, at: 0 };
          } catch (error) {
            // Recorded, and thrown again outside the step: the loop words the failure as in one process.
            const stopped = error instanceof ToolError && toolContext.signal?.aborted === true && error === toolContext.signal.reason;
            outcome = { kind: "threw", message: error instanceof Error ? error.message : String(error), ...(error instanceof ToolError ? { toolErrorKind: error.kind } : {}), ...(stopped ? { stopped: true } : {}), at: 0 };
          }
          if (atMostOnce) await context.tables.finishToolCall(context.runId, callKey);
          return JSON.parse(JSON.stringify({ ...outcome, at: context.now() })) as StepOutcome;
        });
      let outcome = await attempt(false);
      advanceClock(context, outcome);
      if (outcome.kind !== "interrupted") return resultOf(outcome);

      const decision = await askPerson(context, { tool: tool.name, callKey, reason: "interrupted" });
      if (decision === "rerun") {
        await context.step("confirm", () => context.tables.confirmToolCall(context.runId, callKey, "rerun"));
        outcome = await attempt(true);
        advanceClock(context, outcome);
        if (outcome.kind !== "interrupted") return resultOf(outcome);
      }
      return {
        content: `This ${tool.name} call started before a crash and may or may not have taken effect; it was not run again (${decision === "skip" ? "the user chose to skip it" : "no one confirmed it"}). Check its effect before repeating it.`,
        isError: true,
      };
    },
  };
}

/**
 * The call's result, unless the loop stopped it first (its tool timeout aborts the call's signal with
 * a ToolError saying so): then that error, at once. The loop has answered the model with it and does
 * not wait for the call; the step records it too, so a replay gives what the run saw, not whatever
 * the call returned later (a success, for a tool that ignores its signal).
 */
function stoppedByLoop<Result>(execution: Promise<Result>, signal: AbortSignal | undefined): Promise<Result> {
  if (!signal) return execution;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => {
      if (signal.reason instanceof ToolError) reject(signal.reason);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([execution, stopped]).finally(() => signal.removeEventListener("abort", onAbort!));
}

/** The model's call id, cut (hostile input: it names steps and keys). */
function toolCallId(toolContext: { toolCallId: string }): string {
  return String(toolContext.toolCallId).slice(0, 64);
}

/**
 * Moves the run's clock to the step's time, except for a call the loop's timeout stopped: the loop
 * answered it at once and stamped its message while the step was still finishing (its at-most-once
 * row, its checkpoint), whereas a replay returns the step first. Moving the clock then would stamp
 * the replayed message later than the run did, and the session would differ from the stored one.
 */
function advanceClock(context: DurableRunContext, outcome: StepOutcome): void {
  if (outcome.kind === "threw" && outcome.stopped) return;
  context.clock.advance(outcome.at);
}

function resultOf(outcome: Exclude<StepOutcome, { kind: "interrupted" }>): ToolOutput {
  if (outcome.kind === "done") return outcome.output;
  throw outcome.toolErrorKind ? new ToolError(outcome.toolErrorKind, outcome.message) : new Error(outcome.message);
}
