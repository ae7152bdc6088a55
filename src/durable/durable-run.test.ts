import pg from "pg";
import { describe, expect, it } from "vitest";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createAgentTracing } from "../tracing/agent-tracing.js";
import { createPostgresSessionStore } from "../session/create-postgres-session-store.js";
import { testDatabase } from "../session/postgres/test-support/test-database.js";
import { useDurableTestDatabase } from "./test-support/use-durable-test-database.js";
import type { ModelRequest } from "../types/index.js";
import { openDurableClient } from "./durable-client.js";
import { assembleDurableParts, type DurableAgentBuilder } from "./durable-agent-builder.js";
import { loadDbos } from "./load-dbos.js";
import { openDurableDatabase } from "./durable-database.js";
import { startDurableWorker } from "./start-durable-worker.js";
import { recordSideEffectTool } from "./test-support/record-side-effect-tool.js";

const database = await testDatabase();
const spans = (() => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor({ exporter });
  return { provider: new TracerProvider({ spanProcessors: [processor] }), finished: async () => (await processor.forceFlush(), exporter.getFinishedSpans()) };
})();

/** A scripted agent: one `record` call per step (a counted side effect), then an answer; the turn follows from the request alone. */
function scriptedBuilder(url: string): DurableAgentBuilder {
  return async (input, assembly) => {
    if (input.throwOnBuild) throw Object.assign(new Error("server did not start"), { code: "mcp_server_failed" });
    const steps = Number(input.steps ?? 1);
    const delayMs = Number(input.delayMs ?? 0);
    const pool = new pg.Pool({ connectionString: url, max: 2, allowExitOnIdle: true });
    const record = recordSideEffectTool(pool, String(input.runKey));
    const turnOf = (request: ModelRequest) => request.messages.filter((message) => message.role === "tool").length;
    const provider = createScriptedProvider({
      turns: (request) => {
        const done = turnOf(request);
        return done < steps ? { toolCalls: [{ id: `call-${done}`, name: "record", arguments: { step: done } }], delayMs } : { text: `All ${steps} steps recorded.`, delayMs };
      },
    });
    return assembleDurableParts({ provider, tools: [record], system: "You record steps.", maxCallTokens: 1_000 }, assembly);
  };
}

describe.skipIf(database.skip !== undefined)(`durable runs on DBOS${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  const durableTest = useDurableTestDatabase(database, "durable", { sideEffectsTable: true });
  const sideEffects = async (runKey: string) => (await durableTest.admin.query<{ step: number }>("SELECT step FROM test_side_effects WHERE run_key = $1 ORDER BY step", [runKey])).rows.map((row) => row.step);

  it("pauses a run whose side-effecting call a crash interrupted, and continues once a person answers", async () => {
    const submitted = await durableTest.client.submit({ task: "record one step", agent: { kind: "scripted", input: { steps: 1, runKey: "paused" } } });
    // What a worker killed inside the call leaves behind: the call recorded as started, never finished.
    await durableTest.admin.query("INSERT INTO ctxkit_tool_calls (run_id, call_key, tool, state, executor) VALUES ($1, 'tool-0-call-0', 'record', 'started', 'dead-worker')", [submitted.id]);
    durableTest.worker = await startDurableWorker({ connectionString: durableTest.url, concurrency: 2, builders: { scripted: scriptedBuilder(durableTest.url) }, tracing: createAgentTracing({ tracer: spans.provider.getTracer("test") }) });
    const paused = await durableTest.client.wait(submitted.id, 30_000);
    expect(paused).toMatchObject({ status: "needs_confirmation", pausedCall: { tool: "record", callKey: "tool-0-call-0" } });
    expect(await sideEffects("paused")).toEqual([]);
    await expect(durableTest.client.resume(submitted.id)).rejects.toMatchObject({ code: "session_write_refused", message: expect.stringContaining('pass resume a decision: "rerun" runs it, "skip"') });
    await durableTest.client.resume(submitted.id, "skip");
    const done = await durableTest.client.wait(submitted.id, 30_000);
    expect(done.status).toBe("completed");
    expect(await sideEffects("paused")).toEqual([]);
  }, 60_000);

  it("takes one answer per paused call: two resumes that both read the pause cannot answer the run's next question", async () => {
    const submitted = await durableTest.client.submit({ task: "record two steps", agent: { kind: "scripted", input: { steps: 2, runKey: "answered-twice" } } });
    // A crash interrupted both calls: the run asks about each in turn.
    for (const key of ["tool-0-call-0", "tool-1-call-1"]) await durableTest.admin.query("INSERT INTO ctxkit_tool_calls (run_id, call_key, tool, state, executor) VALUES ($1, $2, 'record', 'started', 'dead-worker')", [submitted.id, key]);
    durableTest.worker ??= await startDurableWorker({ connectionString: durableTest.url, concurrency: 2, builders: { scripted: scriptedBuilder(durableTest.url) }, tracing: createAgentTracing({ tracer: spans.provider.getTracer("test") }) });
    expect(await durableTest.client.wait(submitted.id, 30_000)).toMatchObject({ status: "needs_confirmation", pausedCall: { callKey: "tool-0-call-0" } });
    // Two people (or a retried command) answer the first question at once, each having read the pause
    // before either answer cleared it: the run's row is held until both answers are sent.
    const other = await openDurableClient(durableTest.url);
    const holder = new pg.Client({ connectionString: durableTest.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT id FROM ctxkit_runs WHERE id = $1 FOR UPDATE", [submitted.id]);
      const answers = Promise.all([durableTest.client.resume(submitted.id, "rerun"), other.resume(submitted.id, "rerun")]);
      const clearing = async () => Number((await durableTest.admin.query<{ count: string }>("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%paused_call->>%'")).rows[0]!.count);
      for (let tries = 0; tries < 200 && (await clearing()) < 2; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      await holder.query("COMMIT");
      await answers;
    } finally {
      await holder.end();
      await other.close();
    }
    // The second call still waits for its own answer; it was not run on the first one's.
    expect(await durableTest.client.wait(submitted.id, 30_000)).toMatchObject({ status: "needs_confirmation", pausedCall: { callKey: "tool-1-call-1" } });
    expect(await sideEffects("answered-twice")).toEqual([0]);
    await durableTest.client.resume(submitted.id, "skip");
    expect((await durableTest.client.wait(submitted.id, 30_000)).status).toBe("completed");
    expect(await sideEffects("answered-twice")).toEqual([0]);
  }, 60_000);

  it("resumes a run cancelled while it waited for a person at once, though the cancelled wait still holds its session", async () => {
    const submitted = await durableTest.client.submit({ task: "record one step", agent: { kind: "scripted", input: { steps: 1, runKey: "cancelled-paused" } } });
    await durableTest.admin.query("INSERT INTO ctxkit_tool_calls (run_id, call_key, tool, state, executor) VALUES ($1, 'tool-0-call-0', 'record', 'started', 'dead-worker')", [submitted.id]);
    durableTest.worker ??= await startDurableWorker({ connectionString: durableTest.url, concurrency: 2, builders: { scripted: scriptedBuilder(durableTest.url) } });
    expect((await durableTest.client.wait(submitted.id, 30_000)).status).toBe("needs_confirmation");
    await durableTest.client.cancel(submitted.id);
    // At once: the cancelled execution is still in its wait, holding the session, when the new one opens it.
    await durableTest.client.resume(submitted.id);
    const resumed = await durableTest.client.wait(submitted.id, 60_000);
    expect(resumed, JSON.stringify(resumed.result)).toMatchObject({ status: "needs_confirmation", pausedCall: { callKey: "tool-0-call-0" } });
    await durableTest.client.resume(submitted.id, "skip");
    const done = await durableTest.client.wait(submitted.id, 30_000);
    expect(done.status, JSON.stringify(done.result)).toBe("completed");
  }, 90_000);

  it("refuses a second worker in the same process while one runs (DBOS keeps one registry per process)", async () => {
    await expect(startDurableWorker({ connectionString: durableTest.url, builders: { scripted: scriptedBuilder(durableTest.url) } })).rejects.toMatchObject({ code: "option_invalid", message: expect.stringContaining("stop() it first") });
  });

  it("runs a submitted task on a worker into a byte-exact Postgres session, each side effect once", async () => {
    const submitted = await durableTest.client.submit({ task: "record three steps", agent: { kind: "scripted", input: { steps: 3, runKey: "plain" } } });
    const done = await durableTest.client.wait(submitted.id, 30_000);
    expect(done).toMatchObject({ status: "completed", attempts: 1, result: { stopReason: "final_answer", finalText: "All 3 steps recorded.", repeatedModelCalls: 0 } });
    expect(await sideEffects("plain")).toEqual([0, 1, 2]);
    const sessions = await createPostgresSessionStore({ connectionString: durableTest.url });
    const session = await sessions.load(submitted.sessionId);
    expect(session.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant", "tool", "assistant"]);
    expect(session.requests).toHaveLength(4);
    expect(session.warnings).toEqual([]);
    await sessions.close();
  }, 60_000);

  it("traces a run under the submitter's traceparent, and keeps the run span's own for the segments after a crash", async () => {
    const submitterTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const submitted = await durableTest.client.submit({ task: "record one step", traceparent: `00-${submitterTrace}-00f067aa0ba902b7-01`, agent: { kind: "scripted", input: { steps: 1, runKey: "traced" } } });
    const done = await durableTest.client.wait(submitted.id, 30_000);
    expect(done.status).toBe("completed");
    const runSpan = (await spans.finished()).find((span) => span.name.startsWith("invoke_agent") && span.spanContext().traceId === submitterTrace);
    expect(runSpan?.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    expect(done.traceparent).toBe(`00-${submitterTrace}-${runSpan!.spanContext().spanId}-01`);
  }, 60_000);

  it("cancels a running run", async () => {
    const submitted = await durableTest.client.submit({ task: "slow", agent: { kind: "scripted", input: { steps: 50, delayMs: 200, runKey: "cancelled" } } });
    for (let tries = 0; tries < 100 && (await durableTest.client.get(submitted.id)).status !== "running"; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    await durableTest.client.cancel(submitted.id);
    const done = await durableTest.client.wait(submitted.id, 30_000);
    expect(done.status).toBe("cancelled");
    expect((await sideEffects("cancelled")).length).toBeLessThan(50);
  }, 60_000);

  it("continues a run cancelled while it ran once it is resumed, each side effect at most once", async () => {
    durableTest.worker ??= await startDurableWorker({ connectionString: durableTest.url, concurrency: 2, builders: { scripted: scriptedBuilder(durableTest.url) } });
    // Each model call takes a second (the cancel cuts the one in flight): the run is still going when the
    // test has seen two steps and cancels, however slow the machine (200 ms left it 1 s to finish first).
    const submitted = await durableTest.client.submit({ task: "four steps", agent: { kind: "scripted", input: { steps: 4, delayMs: 1_000, runKey: "cancel-resume" } } });
    for (let tries = 0; tries < 100 && (await sideEffects("cancel-resume")).length < 2; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    await durableTest.client.cancel(submitted.id);
    expect((await durableTest.client.wait(submitted.id, 30_000)).status).toBe("cancelled");
    await durableTest.client.resume(submitted.id);
    let run = await durableTest.client.wait(submitted.id, 60_000);
    // A call the cancel cut waits for a person, as after a crash.
    while (run.status === "needs_confirmation") {
      await durableTest.client.resume(submitted.id, "skip");
      run = await durableTest.client.wait(submitted.id, 60_000);
    }
    expect(run.status, JSON.stringify(run.result)).toBe("completed");
    const steps = await sideEffects("cancel-resume");
    expect(new Set(steps).size).toBe(steps.length);
  }, 120_000);

  it("clears only the pause a person answered: a run already paused again on another call stays paused", async () => {
    const database = await openDurableDatabase(durableTest.url, 2);
    try {
      const submitted = await durableTest.client.submit({ task: "never taken", agent: { kind: "nobody-here", input: {} } });
      await durableTest.client.cancel(submitted.id);
      // Settled first: a worker still handling the cancelled run could write its status over the one set below.
      expect((await durableTest.client.wait(submitted.id, 20_000)).status).toBe("cancelled");
      // The worker took the answer to call A and paused on call B before the client's update.
      await database.tables.setStatus(submitted.id, "needs_confirmation", { pausedCall: { tool: "record", callKey: "tool-1-call-1" } });
      await database.tables.markResumed(submitted.id, "tool-0-call-0");
      expect(await durableTest.client.get(submitted.id)).toMatchObject({ status: "needs_confirmation", pausedCall: { callKey: "tool-1-call-1" } });
      await database.tables.markResumed(submitted.id, "tool-1-call-1");
      expect((await durableTest.client.get(submitted.id)).status).toBe("running");
    } finally {
      await database.close();
    }
  }, 30_000);

  it("charges the shared-budget reservations of ended runs (a dead attempt's), and does not make calls wait for them", async () => {
    const database = await openDurableDatabase(durableTest.url, 2);
    try {
      await durableTest.client.defineBudget("leaky", 2_000, 1_000);
      const ended = await durableTest.client.submit({ task: "x", agent: { kind: "nobody-here", input: {} } });
      expect(["failed", "cancelled"]).toContain((await durableTest.client.cancel(ended.id)).status);
      // What a worker killed between a call's reservation and its release leaves behind.
      await durableTest.admin.query("INSERT INTO ctxkit_budget_reservations (scope, call_key, tokens) VALUES ('leaky', $1, 1500)", [`${ended.id}/model-0`]);
      await durableTest.admin.query("UPDATE ctxkit_budgets SET reserved_tokens = 1500 WHERE scope = 'leaky'");
      // 1 500 held by a run that ended will never be settled: waiting cannot help.
      expect(await database.budget.reserve("leaky", "other-run/model-0", 1_000)).toEqual({ reserved: false, waitHelps: false });
      // The sweep every worker's watchdog makes (it may have made it already).
      await database.budget.chargeEnded();
      // The dead attempt may have been billed: counted as spent, not released.
      expect(await durableTest.client.readBudget("leaky")).toMatchObject({ reservedTokens: 0, spentTokens: 1_500 });
      expect(await database.budget.reserve("leaky", "other-run/model-0", 500)).toEqual({ reserved: true });
      expect(await database.budget.reserve("leaky", "other-run/model-1", 1)).toEqual({ reserved: false, waitHelps: false });
    } finally {
      await database.close();
    }
  }, 60_000);

  it("fails a run it cannot build (unknown kind, a builder that throws) instead of leaving it running", async () => {
    const unknown = await durableTest.client.submit({ task: "x", agent: { kind: "nobody", input: {} } });
    expect(await durableTest.client.wait(unknown.id, 30_000)).toMatchObject({ status: "failed", result: { error: { code: "option_invalid", message: expect.stringContaining("'nobody'") } } });
    const throwing = await durableTest.client.submit({ task: "x", agent: { kind: "scripted", input: { throwOnBuild: true } } });
    expect(await durableTest.client.wait(throwing.id, 30_000)).toMatchObject({ status: "failed", result: { error: { code: "mcp_server_failed", message: "server did not start" } } });
  }, 60_000);

  it("times a run out at its deadline: its agent is aborted and the run fails with run_timeout", async () => {
    const submitted = await durableTest.client.submit({ task: "slow", timeoutMs: 1_500, agent: { kind: "scripted", input: { steps: 50, delayMs: 200, runKey: "timeout" } } });
    const done = await durableTest.client.wait(submitted.id, 30_000);
    expect(done).toMatchObject({ status: "failed", result: { stopReason: "timeout", error: { code: "run_timeout", message: expect.stringContaining("submit it with a longer timeoutMs") } } });
    expect(done.result?.error?.message).not.toContain("--timeout");
    expect((await sideEffects("timeout")).length).toBeLessThan(50);
  }, 60_000);

  it("keeps a deadline weeks away (past setTimeout's 24.8 days, which would fire at once)", async () => {
    durableTest.worker ??= await startDurableWorker({ connectionString: durableTest.url, concurrency: 2, builders: { scripted: scriptedBuilder(durableTest.url) } });
    const submitted = await durableTest.client.submit({ task: "one step", timeoutMs: 30 * 24 * 3600 * 1000, agent: { kind: "scripted", input: { steps: 1, runKey: "month" } } });
    expect(await durableTest.client.wait(submitted.id, 30_000)).toMatchObject({ status: "completed", result: { stopReason: "final_answer" } });
  }, 60_000);

  it("refuses an empty task and an unknown run in its own words, not the CLI's", async () => {
    await expect(durableTest.client.submit({ task: "  ", agent: { kind: "scripted", input: {} } })).rejects.toMatchObject({ code: "usage_invalid", message: expect.stringContaining("pass submit({ task })") });
    await expect(durableTest.client.get("run-nope")).rejects.toMatchObject({ code: "session_not_found", message: expect.stringContaining("a durable client's list() shows the runs it holds") });
    await expect(durableTest.client.get("run-nope")).rejects.not.toMatchObject({ message: expect.stringContaining("ctxkit runs") });
  });

  it("stops waiting when the engine ends a run's workflow behind ctxkit's back", async () => {
    const submitted = await durableTest.client.submit({ task: "slow", agent: { kind: "scripted", input: { steps: 50, delayMs: 200, runKey: "engine-cancelled" } } });
    for (let tries = 0; tries < 100 && (await durableTest.client.get(submitted.id)).status !== "running"; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    const { DBOSClient } = await loadDbos();
    const engine = await DBOSClient.create({ systemDatabaseUrl: durableTest.url, logger: { info: () => undefined, debug: () => undefined, warn: () => undefined, error: () => undefined } });
    await engine.cancelWorkflow(submitted.id);
    await engine.destroy();
    const done = await durableTest.client.wait(submitted.id, 30_000);
    expect(done.status).toBe("failed");
    expect(done.result?.error?.code).toBeDefined();
  }, 60_000);

  it("makes a call wait while calls in flight hold a shared budget (backpressure), instead of refusing it", async () => {
    // Each call reserves 1 000 tokens and uses a few hundred: two runs' calls fit in 1 600 only one at a time.
    await durableTest.client.defineBudget("pair", 1_600, 1_000);
    const runs = await Promise.all([1, 2].map((index) => durableTest.client.submit({ task: "one step", budgetScope: "pair", agent: { kind: "scripted", input: { steps: 1, delayMs: 100, runKey: `pair-${index}` } } })));
    const done = await Promise.all(runs.map((run) => durableTest.client.wait(run.id, 60_000)));
    expect(done.map((run) => run.status)).toEqual(["completed", "completed"]);
    const budget = await durableTest.client.readBudget("pair");
    expect(budget).toMatchObject({ reservedTokens: 0 });
    expect(budget!.spentTokens).toBeLessThanOrEqual(1_600);
  }, 90_000);

  it("shares a budget between runs in one transaction per change, refusing calls it cannot cover", async () => {
    // Each call reserves 1 000 tokens and uses a few hundred: the twelve calls need more than the 1 500 there are.
    await durableTest.client.defineBudget("team", 1_500, 1_000);
    const runs = await Promise.all([1, 2, 3, 4].map((index) => durableTest.client.submit({ task: "two steps", budgetScope: "team", agent: { kind: "scripted", input: { steps: 2, runKey: `budget-${index}` } } })));
    const done = await Promise.all(runs.map((run) => durableTest.client.wait(run.id, 30_000)));
    const budget = await durableTest.client.readBudget("team");
    expect(budget?.reservedTokens).toBe(0);
    expect(budget!.spentTokens).toBeLessThanOrEqual(1_500);
    expect(done.some((run) => run.status === "failed")).toBe(true);
  }, 60_000);
});
