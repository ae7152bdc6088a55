import type pg from "pg";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import { assembleDurableParts, type DurableAgentBuilder } from "../../durable/durable-agent-builder.js";
import type { ModelRequest, Tool } from "../../types/index.js";

/** The counted side effects of the durable bench: one row per tool call that ran. */
export const benchSideEffectsTable = "ctxkit_bench_side_effects";

/**
 * The durable bench's scripted agent: `steps` turns that each call `record_step` (a side effect that
 * inserts a row, risk `write`, not idempotent), then an answer. The reply of each call waits
 * `modelLatencyMs`, the tool `toolLatencyMs`. The turn follows from the request alone (the number of
 * tool results in it), so a run executed again after a crash asks for the same things.
 */
export function createBenchDurableAgent(pool: pg.Pool): DurableAgentBuilder {
  return async (input, assembly) => {
    const steps = Number(input.steps ?? 3);
    const modelLatencyMs = Number(input.modelLatencyMs ?? 100);
    const toolLatencyMs = Number(input.toolLatencyMs ?? 20);
    const runKey = String(input.runKey);
    const record: Tool<{ step: number }> = {
      name: "record_step",
      description: "Records that a step of the task was done (a side effect the bench counts).",
      parameters: { type: "object", properties: { step: { type: "integer" } }, required: ["step"] },
      risk: "write",
      async execute(args) {
        await new Promise((resolve) => setTimeout(resolve, toolLatencyMs));
        await pool.query(`INSERT INTO ${benchSideEffectsTable} (run_key, step) VALUES ($1, $2)`, [runKey, args.step]);
        return `step ${args.step} recorded`;
      },
    };
    const done = (request: ModelRequest) => request.messages.filter((message) => message.role === "tool").length;
    // One chunk per reply: the scripted provider waits `delayMs` before each chunk, so each call takes `modelLatencyMs` once.
    const provider = createScriptedProvider({
      chunkSize: 1_000,
      turns: (request) => {
        const finished = done(request);
        return finished < steps
          ? { toolCalls: [{ id: `call-${finished}`, name: "record_step", arguments: { step: finished } }], delayMs: modelLatencyMs }
          : { text: `All ${steps} steps are recorded.`, delayMs: modelLatencyMs };
      },
    });
    return assembleDurableParts({ provider, tools: [record], system: "You do tasks step by step and record each step.", maxCallTokens: 2_000, maxIterations: steps + 2 }, assembly);
  };
}
