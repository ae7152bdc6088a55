import type pg from "pg";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import { assembleDurableParts, type DurableAgentBuilder } from "../../durable/durable-agent-builder.js";
import type { Provider } from "../../providers/provider.js";
import type { ModelRequest, Tool } from "../../types/index.js";
import { reservationOf } from "../../durable/create-durable-provider.js";

/** The counted side effects of the durable bench: one row per tool call that ran. */
export const benchSideEffectsTable = "ctxkit_bench_side_effects";
/** What the bench's model "bills": one row per model call attempt, written when the call starts (with `billed`). */
export const benchModelUsageTable = "ctxkit_bench_model_usage";
/** The most tokens one of the bench's model calls may use: what a shared budget reserves per call at most. */
export const benchMaxCallTokens = 2_000;
/** Output tokens each scripted reply reports (a tool call's arguments, or the short answer). */
const outputTokensPerCall = 40;
/**
 * The agent's max output, as a deployment sharing a budget sets one (--max-output-tokens): above
 * what its replies use, so a call reserves its prompt plus this, not the 4,096 assumed without one.
 */
const maxOutputTokens = 256;

/**
 * The durable bench's scripted agent: `steps` turns that each call `record_step` (a side effect that
 * inserts a row, risk `write`, not idempotent), then an answer. The reply of each call waits
 * `modelLatencyMs`, the tool `toolLatencyMs`. The turn follows from the request alone (the number of
 * tool results in it), so a run executed again after a crash asks for the same things. With `billed`,
 * each model call attempt records its tokens before it answers, as a hosted model bills a request
 * it received even when the caller dies before the reply: the ground truth a shared budget's
 * overrun is measured against (the budget's own ledger only knows what it was told). Without
 * `useFactor` a reply never uses more than its call reserved (its prompt, a quarter of the body's
 * characters, plus 40 output tokens, against the prompt's estimate plus 256): billed ≤ reserved by
 * construction, so those phases show the bookkeeping holding, not the bound approached.
 */
export function createBenchDurableAgent(pool: pg.Pool): DurableAgentBuilder {
  return async (input, assembly) => {
    const steps = Number(input.steps ?? 3);
    const modelLatencyMs = Number(input.modelLatencyMs ?? 100);
    const toolLatencyMs = Number(input.toolLatencyMs ?? 20);
    const runKey = String(input.runKey);
    const billed = input.billed === true;
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
    // The usage each reply reports is known before the call (a quarter of the body's characters, as
    // the scripted provider counts, plus a fixed output), so an attempt can be billed when it starts.
    // With `useFactor` (the overuse phase), a reply uses that many times what its call reserved: a
    // prompt estimate too low, so the shared budget's overrun is measured against its bound, not zero.
    const useFactor = Number(input.useFactor ?? 1);
    const usageOf = (request: ModelRequest) =>
      useFactor > 1
        ? { inputTokens: Math.ceil(useFactor * reservationOf(scripted, request, benchMaxCallTokens)) - outputTokensPerCall, outputTokens: outputTokensPerCall }
        : { inputTokens: Math.ceil(scripted.serialize(request).body.length / 4), outputTokens: outputTokensPerCall };
    const scripted = createScriptedProvider({
      chunkSize: 1_000,
      turns: (request) => {
        const finished = done(request);
        return finished < steps
          ? { toolCalls: [{ id: `call-${finished}`, name: "record_step", arguments: { step: finished } }], delayMs: modelLatencyMs, usage: usageOf(request) }
          : { text: `All ${steps} steps are recorded.`, delayMs: modelLatencyMs, usage: usageOf(request) };
      },
    });
    const provider: Provider = !billed
      ? scripted
      : {
          ...scripted,
          stream: async function* (request, signal) {
            const usage = usageOf(request);
            await pool.query(`INSERT INTO ${benchModelUsageTable} (run_key, tokens) VALUES ($1, $2)`, [runKey, usage.inputTokens + usage.outputTokens]);
            yield* scripted.stream(request, signal);
          },
        };
    return assembleDurableParts({ provider, tools: [record], system: "You do tasks step by step and record each step.", maxCallTokens: benchMaxCallTokens, maxIterations: steps + 2, settings: { maxOutputTokens } }, assembly);
  };
}
