import pg from "pg";
import { describe, expect, it } from "vitest";
import { createTaskTool } from "../agents/create-task-tool.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createPostgresSessionStore } from "../session/create-postgres-session-store.js";
import { testDatabase } from "../session/postgres/test-support/test-database.js";
import { useDurableTestDatabase } from "./test-support/use-durable-test-database.js";
import type { ModelRequest } from "../types/index.js";
import { assembleDurableParts, type DurableAgentBuilder } from "./durable-agent-builder.js";
import { startDurableWorker } from "./start-durable-worker.js";
import { crashAndRecover } from "./test-support/crash-and-recover.js";
import { hangOnce, type HangOnce } from "./test-support/hang-once.js";
import { recordSideEffectTool } from "./test-support/record-side-effect-tool.js";

const database = await testDatabase();

/**
 * A parent that starts a sub-agent (which records step 1), records step 2 itself, then answers. Its
 * answer hangs once: the call in flight when the test stops the worker, as a crash would leave it.
 */
function parentWithSubAgent(url: string, hang: HangOnce): DurableAgentBuilder {
  return async (input, assembly) => {
    const pool = new pg.Pool({ connectionString: url, max: 2, allowExitOnIdle: true });
    const record = recordSideEffectTool(pool, String(input.runKey));
    const done = (request: ModelRequest) => request.messages.filter((message) => message.role === "tool").length;
    const scripted = createScriptedProvider({
      turns: (request) => {
        const isParent = request.tools.some((tool) => tool.name === "task");
        if (!isParent) return done(request) === 0 ? { toolCalls: [{ id: "call-0", name: "record", arguments: { step: 1 } }] } : { text: "Step 1 recorded." };
        const turn = done(request);
        if (turn === 0) return { toolCalls: [{ id: "call-0", name: "task", arguments: { agent: "helper", description: "record step 1", prompt: "Record step 1." } }] };
        if (turn === 1) return { toolCalls: [{ id: "call-1", name: "record", arguments: { step: 2 } }] };
        return { text: "Steps 1 and 2 recorded." };
      },
    });
    const provider = hangOnce(scripted, (request) => done(request) === 2 && request.tools.some((tool) => tool.name === "task"), hang);
    const wrapped = assembly.wrapProvider(provider, 1_000);
    const task = createTaskTool({ agents: [{ name: "helper", description: "Records steps.", system: "You record steps.", tools: [record] }], provider: wrapped, sessionStore: assembly.sessionStore });
    return assembleDurableParts({ provider: wrapped, tools: [record, task], system: "You record steps, some through a helper.", maxCallTokens: 1_000 }, { ...assembly, wrapProvider: (given) => given });
  };
}

describe.skipIf(database.skip !== undefined)(`a durable run with a sub-agent${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  const durableTest = useDurableTestDatabase(database, "durable_sub_agent", { sideEffectsTable: true });

  it("keys the sub-agent's model calls under its task call, and replays the run after a crash with each side effect once", async () => {
    let reached!: () => void;
    const hangReached = new Promise<void>((resolve) => (reached = resolve));
    const builders = { parent: parentWithSubAgent(durableTest.url, { once: true, reached }) };
    durableTest.worker = await startDurableWorker({ connectionString: durableTest.url, executorId: "worker-crashed", concurrency: 1, builders });
    const submitted = await durableTest.client.submit({ task: "Record steps 1 and 2.", agent: { kind: "parent", input: { runKey: "sub" } } });
    await hangReached;
    // The crash: the worker goes away with the parent's last model call in flight (its workflow is
    // never finished in this process); another worker's watchdog recovers the run.
    durableTest.worker = await crashAndRecover(durableTest.worker, durableTest.admin, builders, durableTest.url);
    const done = await durableTest.client.wait(submitted.id, 60_000);
    expect(done.result?.error).toBeUndefined();
    expect(done).toMatchObject({ status: "completed", attempts: 2, result: { finalText: "Steps 1 and 2 recorded.", repeatedModelCalls: 1 } });
    // Each side effect once: the task step (with the sub-agent's call) and the parent's call were replayed, not run again.
    expect((await durableTest.admin.query<{ step: number }>("SELECT step FROM test_side_effects WHERE run_key = 'sub' ORDER BY step")).rows.map((row) => row.step)).toEqual([1, 2]);
    // The parent's calls are model-0..2 whether the task step ran or was replayed; the sub-agent's are its task call's own.
    const calls = (await durableTest.admin.query<{ call_key: string; attempts: number }>("SELECT call_key, attempts FROM ctxkit_model_calls WHERE run_id = $1 ORDER BY call_key", [submitted.id])).rows;
    expect(calls).toEqual([
      { call_key: "model-0", attempts: 1 },
      { call_key: "model-1", attempts: 1 },
      { call_key: "model-2", attempts: 2 },
      { call_key: "tool-0-call-0/model-0", attempts: 1 },
      { call_key: "tool-0-call-0/model-1", attempts: 1 },
    ]);
    const sessions = await createPostgresSessionStore({ connectionString: durableTest.url });
    try {
      const session = await sessions.load(done.sessionId);
      expect(session.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant"]);
      expect(session.warnings).toEqual([]);
    } finally {
      await sessions.close();
    }
  }, 120_000);
});
