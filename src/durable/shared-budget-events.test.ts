import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { testDatabase } from "../session/postgres/test-support/test-database.js";
import { useDurableTestDatabase } from "./test-support/use-durable-test-database.js";
import type { AgentEvent, ModelRequest, Tool } from "../types/index.js";
import { assembleDurableParts, type DurableAgentBuilder } from "./durable-agent-builder.js";
import { openDurableDatabase } from "./durable-database.js";
import { reservationKey } from "./shared-budget.js";
import { startDurableWorker } from "./start-durable-worker.js";

const database = await testDatabase();

/** Every call uses exactly 100 tokens and may use no more (maxCallTokens): the scope's spend is known call by call. */
const callTokens = 100;

/** `steps` calls of a read-only `note` tool, then an answer: steps + 1 model calls of 100 tokens each. */
const builder: DurableAgentBuilder = async (input, assembly) => {
  const steps = Number(input.steps);
  const note: Tool<{ step: number }> = {
    name: "note",
    description: "Notes a step.",
    parameters: { type: "object", properties: { step: { type: "integer" } }, required: ["step"] },
    risk: "read",
    execute: async (args) => `step ${args.step} noted`,
  };
  const done = (request: ModelRequest) => request.messages.filter((message) => message.role === "tool").length;
  const usage = { inputTokens: callTokens - 10, outputTokens: 10 };
  const provider = createScriptedProvider({
    turns: (request) => (done(request) < steps ? { toolCalls: [{ id: `call-${done(request)}`, name: "note", arguments: { step: done(request) } }], usage } : { text: "Done.", usage }),
  });
  return assembleDurableParts({ provider, tools: [note], system: "You note steps.", maxCallTokens: callTokens }, assembly);
};

describe.skipIf(database.skip !== undefined)(`a shared budget's events on workers${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  const durableTest = useDurableTestDatabase(database, "shared_budget_events");
  const events = new Map<string, AgentEvent[]>();
  const startWorker = async () => {
    durableTest.worker ??= await startDurableWorker({
      connectionString: durableTest.url,
      concurrency: 2,
      builders: { notes: builder },
      onRunEvent: (runId, event) => {
        events.set(runId, [...(events.get(runId) ?? []), event]);
        if (throwingFor.has(runId)) throw new Error("the caller's callback broke");
      },
      onLog: (level, message) => void logs.push(`${level}: ${message}`),
    });
  };
  const throwingFor = new Set<string>();
  const logs: string[] = [];
  const eventsOf = (runId: string, type: AgentEvent["type"]) => (events.get(runId) ?? []).filter((event) => event.type === type);

  it("counts as spent the reservation a call interrupted by a crash left, before the call is made again", async () => {
    await durableTest.client.defineBudget("interrupted", 10_000, callTokens);
    const submitted = await durableTest.client.submit({ task: "one answer", budgetScope: "interrupted", agent: { kind: "notes", input: { steps: 0 } } });
    // What a worker killed during the run's first model call leaves: the attempt counted, its reservation held.
    await durableTest.admin.query("INSERT INTO ctxkit_model_calls (run_id, call_key, attempts) VALUES ($1, 'model-0', 1)", [submitted.id]);
    await durableTest.admin.query("INSERT INTO ctxkit_budget_reservations (scope, call_key, tokens) VALUES ('interrupted', $1, 100)", [`${submitted.id}/model-0`]);
    await durableTest.admin.query("UPDATE ctxkit_budgets SET reserved_tokens = 100 WHERE scope = 'interrupted'");
    await startWorker();
    expect(await durableTest.client.wait(submitted.id, 30_000)).toMatchObject({ status: "completed", result: { repeatedModelCalls: 1 } });
    // The dead attempt's 100 (it may have been billed) and the repeated call's 100.
    expect(await durableTest.client.readBudget("interrupted")).toMatchObject({ spentTokens: 2 * callTokens, reservedTokens: 0 });
  }, 60_000);

  it("warns when charging a crashed attempt's reservation takes the scope across a threshold", async () => {
    await durableTest.client.defineBudget("charged", 1_000, callTokens);
    const submitted = await durableTest.client.submit({ task: "one answer", budgetScope: "charged", agent: { kind: "notes", input: { steps: 0 } } });
    // 750 spent, and a worker killed during the run's first call held 100 more: the charge takes the scope to 850 (past 80 %).
    await durableTest.admin.query("INSERT INTO ctxkit_model_calls (run_id, call_key, attempts) VALUES ($1, 'model-0', 1)", [submitted.id]);
    await durableTest.admin.query("INSERT INTO ctxkit_budget_reservations (scope, call_key, tokens) VALUES ('charged', $1, 100)", [`${submitted.id}/model-0#1`]);
    await durableTest.admin.query("UPDATE ctxkit_budgets SET spent_tokens = 750, reserved_tokens = 100 WHERE scope = 'charged'");
    await startWorker();
    expect(await durableTest.client.wait(submitted.id, 30_000)).toMatchObject({ status: "completed" });
    expect(await durableTest.client.readBudget("charged")).toMatchObject({ spentTokens: 950, reservedTokens: 0 });
    expect(eventsOf(submitted.id, "warning")).toEqual([
      { type: "warning", code: "budget_threshold", message: "The shared budget 'charged' has spent 80% of its limit (850 of 1,000 tokens, by every run that spends from it)." },
    ]);
  }, 60_000);

  it("warns once when the scope's total passes 80 %, in the run whose call crossed it, and slows the calls after it down", async () => {
    await startWorker();
    await durableTest.client.defineBudget("events", 1_000, callTokens);
    // Run A: 5 calls, the scope at 50 %. Run B: 5 calls, 60 … 100 %: its third call crosses 80 %.
    const first = await durableTest.client.submit({ task: "four notes", budgetScope: "events", agent: { kind: "notes", input: { steps: 4 } } });
    expect((await durableTest.client.wait(first.id, 30_000)).status).toBe("completed");
    const second = await durableTest.client.submit({ task: "four notes", budgetScope: "events", agent: { kind: "notes", input: { steps: 4 } } });
    expect((await durableTest.client.wait(second.id, 30_000)).status).toBe("completed");
    expect(await durableTest.client.readBudget("events")).toMatchObject({ spentTokens: 1_000, reservedTokens: 0 });

    expect(eventsOf(first.id, "warning")).toEqual([]);
    expect(eventsOf(first.id, "backpressure")).toEqual([]);
    expect(eventsOf(second.id, "warning")).toEqual([
      { type: "warning", code: "budget_threshold", message: "The shared budget 'events' has spent 80% of its limit (800 of 1,000 tokens, by every run that spends from it)." },
    ]);
    // The warning follows the third call's usage, as one process's budget warns after the call that crossed.
    const secondEvents = events.get(second.id)!;
    const warningAt = secondEvents.findIndex((event) => event.type === "warning");
    expect(secondEvents.slice(0, warningAt).filter((event) => event.type === "usage")).toHaveLength(3);
    // The fourth call starts at 80 % (50 ms), the fifth at 90 % (750 ms): one process's default steps.
    expect(eventsOf(second.id, "backpressure").map((event) => (event as Extract<AgentEvent, { type: "backpressure" }>).delayMs)).toEqual([50, 750]);
    expect(eventsOf(second.id, "backpressure").map((event) => (event as Extract<AgentEvent, { type: "backpressure" }>).share)).toEqual([0.8, 0.9]);
  }, 60_000);

  it("slows down, then refuses, a run of a spent scope, and does not warn again for a threshold the scope already passed", async () => {
    await startWorker();
    const third = await durableTest.client.submit({ task: "one answer", budgetScope: "events", agent: { kind: "notes", input: { steps: 0 } } });
    const done = await durableTest.client.wait(third.id, 30_000);
    expect(done).toMatchObject({ status: "failed", result: { error: { code: "budget_exceeded" } } });
    // A library error in library terms: how to raise the limit in code, no CLI flag.
    expect(done.result?.error?.message).toContain("defineBudget");
    expect(done.result?.error?.message).not.toContain("--");
    expect(eventsOf(third.id, "backpressure").map((event) => (event as Extract<AgentEvent, { type: "backpressure" }>).delayMs)).toEqual([1_500]);
    expect(eventsOf(third.id, "warning").filter((event) => (event as { code?: string }).code === "budget_threshold")).toEqual([]);
    // It ends as one process's refused call does: a budget_exceeded warning and stop reason, no error event.
    expect(done.result?.stopReason).toBe("budget_exceeded");
    expect(eventsOf(third.id, "warning")).toEqual([{ type: "warning", code: "budget_exceeded", message: done.result?.error?.message }]);
    expect(eventsOf(third.id, "error")).toEqual([]);
    expect(eventsOf(third.id, "run_end")).toMatchObject([{ stopReason: "budget_exceeded", error: { code: "budget_exceeded" } }]);
  }, 60_000);

  it("does not fail a run whose onRunEvent callback throws: each throw is reported through onLog", async () => {
    await startWorker();
    await durableTest.client.defineBudget("callback", 10_000, callTokens);
    const submitted = await durableTest.client.submit({ task: "two notes", budgetScope: "callback", agent: { kind: "notes", input: { steps: 2 } } });
    throwingFor.add(submitted.id);
    expect(await durableTest.client.wait(submitted.id, 30_000)).toMatchObject({ status: "completed" });
    expect(eventsOf(submitted.id, "run_end")).toHaveLength(1);
    expect(logs.filter((line) => line.includes(submitted.id) && line.includes("the caller's callback broke")).length).toBeGreaterThan(0);
  }, 60_000);

  it("reports each threshold a settlement crosses from the spend before and after it, in one statement", async () => {
    const durable = await openDurableDatabase(durableTest.url, 2);
    try {
      await durable.budget.define("settle", 1_000, 500);
      expect(await durable.budget.reserve("settle", "run-x/model-0", 500)).toEqual({ reserved: true });
      expect(await durable.budget.settle("settle", "run-x/model-0", 450)).toEqual({ limitTokens: 1_000, spentBefore: 0, spentAfter: 450 });
      expect(await durable.budget.settle("settle", "run-x/model-1", 400)).toEqual({ limitTokens: 1_000, spentBefore: 450, spentAfter: 850 });
      expect(await durable.budget.settle("gone", "run-x/model-2", 1)).toBeUndefined();
      expect(await durable.budget.chargeInterrupted("settle", "run-x/model-3", 2)).toEqual({ charged: 0 });
    } finally {
      await durable.close();
    }
  }, 30_000);

  it("keys each attempt's reservation apart: an attempt charges only the earlier attempts', and settles only its own", async () => {
    const durable = await openDurableDatabase(durableTest.url, 2);
    try {
      await durable.budget.define("attempts", 10_000, 500);
      // Attempt 1 still running on a worker thought dead, attempt 2 made again, attempt 3 (later) already reserved.
      expect(await durable.budget.reserve("attempts", reservationKey("run-y", "model-0", 1), 100)).toEqual({ reserved: true });
      expect(await durable.budget.reserve("attempts", reservationKey("run-y", "model-0", 3), 300)).toEqual({ reserved: true });
      expect(await durable.budget.chargeInterrupted("attempts", reservationKey("run-y", "model-0"), 2)).toEqual({ charged: 100, spend: { limitTokens: 10_000, spentBefore: 0, spentAfter: 100 } });
      expect(await durable.budget.reserve("attempts", reservationKey("run-y", "model-0", 2), 200)).toEqual({ reserved: true });
      expect(await durable.budget.read("attempts")).toMatchObject({ spentTokens: 100, reservedTokens: 500 });
      // The first attempt ends after all: its settlement takes none of the others' reservations.
      await durable.budget.settle("attempts", reservationKey("run-y", "model-0", 1), 90);
      expect(await durable.budget.read("attempts")).toMatchObject({ spentTokens: 190, reservedTokens: 500 });
      await durable.budget.settle("attempts", reservationKey("run-y", "model-0", 2), 150);
      expect(await durable.budget.read("attempts")).toMatchObject({ spentTokens: 340, reservedTokens: 300 });
    } finally {
      await durable.close();
    }
  }, 30_000);
});
