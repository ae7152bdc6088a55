import type { Tool, ToolOutput } from "../types/index.js";
import type { DurableRunContext } from "./durable-run-context.js";

/** How long a paused run waits for `ctxkit runs resume` before it fails (a week). */
const confirmationWaitSeconds = 7 * 24 * 3600;

type StepOutcome = { kind: "done"; output: ToolOutput; at: number } | { kind: "interrupted"; at: number };

/**
 * A tool as a run's tool calls are made on a worker: each call is one DBOS step (replayed after a
 * crash). A call that changes the world (risk write, exec or send) and is not declared idempotent is
 * recorded as started before it runs; if a crash leaves it started but unfinished, it is never run
 * again silently: the run pauses as `needs_confirmation` until a person answers (`ctxkit runs
 * resume <id> --rerun | --skip`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
export function createDurableTool(tool: Tool<any>, context: DurableRunContext, sequence: { next(): number }): Tool<any> {
  const risk = tool.risk ?? (tool.parallelSafe ? "read" : "write");
  const atMostOnce = risk !== "read" && tool.idempotent !== true;
  return {
    ...tool,
    async execute(args, toolContext) {
      const callKey = `tool-${sequence.next()}-${toolContext.toolCallId}`;
      const attempt = (confirmed: boolean) =>
        context.step(`tool:${tool.name}`, async (): Promise<StepOutcome> => {
          if (atMostOnce && !confirmed) {
            const state = await context.tables.startToolCall(context.runId, callKey, tool.name, context.executorId);
            if (state === "interrupted" || state === "finished") return { kind: "interrupted", at: Date.now() };
          }
          let output: ToolOutput;
          try {
            const result = await tool.execute(args, toolContext);
            output = typeof result === "string" ? { content: result } : result;
          } catch (error) {
            output = { content: `Tool '${tool.name}' failed: ${error instanceof Error ? error.message : String(error)}`, isError: true };
          }
          if (atMostOnce) await context.tables.finishToolCall(context.runId, callKey);
          return JSON.parse(JSON.stringify({ kind: "done", output, at: Date.now() })) as StepOutcome;
        });
      let outcome = await attempt(false);
      context.clock.advance(outcome.at);
      if (outcome.kind === "done") return outcome.output;

      await context.step("pause", () => context.tables.setStatus(context.runId, "needs_confirmation", { pausedCall: { tool: tool.name, callKey } }));
      const decision = await context.receive<"rerun" | "skip">("confirmation", confirmationWaitSeconds);
      await context.step("resume", () => context.tables.setStatus(context.runId, "running", { pausedCall: null }));
      if (decision === "rerun") {
        await context.step("confirm", () => context.tables.confirmToolCall(context.runId, callKey, "rerun"));
        outcome = await attempt(true);
        context.clock.advance(outcome.at);
        if (outcome.kind === "done") return outcome.output;
      }
      return {
        content: `This ${tool.name} call started before a crash and may or may not have taken effect; it was not run again (${decision === "skip" ? "the user chose to skip it" : "no one confirmed it"}). Check its effect before repeating it.`,
        isError: true,
      };
    },
  };
}
