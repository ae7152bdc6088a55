import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createSessionStore, type SessionStore } from "../session/index.js";
import type { Tool } from "../types/index.js";
import { createDurableProvider } from "./create-durable-provider.js";
import { createDurableTool } from "./create-durable-tool.js";
import { assembleDurableParts } from "./durable-agent-builder.js";
import { createDurableClock } from "./durable-run-context.js";
import { durableTestContext, recordingStep } from "./test-support/durable-test-context.js";

const startMs = Date.parse("2026-12-02T08:00:00.000Z");

/**
 * One attempt of a run as a worker makes it: the run's clock, a worker clock that moves at every
 * reading, and steps that are checkpointed a few milliseconds after their work returns (as DBOS
 * writes its row). A replaying attempt gets the recorded steps' results at once, by their order
 * and name, as DBOS gives them.
 */
function createAttempt(recorded: Map<string, unknown>, replay: boolean) {
  let workerMs = startMs;
  return durableTestContext({
    step: recordingStep(recorded, replay, { checkpointDelayMs: 5 }),
    now: () => (workerMs += 1_000),
    clock: createDurableClock(startMs),
    tables: { countModelCall: async () => undefined },
  });
}

/** The run's session file after one attempt, written as a worker writes it (its id fixed by the run). */
async function runAttempt(recorded: Map<string, unknown>, replay: boolean): Promise<string> {
  const context = createAttempt(recorded, replay);
  const directory = mkdtempSync(join(tmpdir(), "ctxkit-durable-timestamps-"));
  const store = createSessionStore({ directory });
  const sessionStore: SessionStore = { ...store, create: (options) => store.create({ ...options, id: "20261202-080000-run001" }) };
  // A tool that ignores its signal: the loop's timeout answers the model while the call goes on.
  const slow: Tool<Record<string, never>> = {
    name: "slow",
    description: "Slow.",
    parameters: { type: "object", properties: {} },
    risk: "read",
    timeoutMs: 30,
    execute: () => new Promise((resolve) => setTimeout(() => resolve("done at last"), 300)),
  };
  const provider = createScriptedProvider({ turns: [{ toolCalls: [{ id: "call-1", name: "slow", arguments: {} }] }, { text: "It timed out." }] });
  let toolCalls = 0;
  let ids = 0;
  const built = await assembleDurableParts(
    { provider, tools: [slow], system: "You call tools.", maxCallTokens: 10_000 },
    {
      sessionStore,
      clock: context.clock.now,
      createId: () => `run-1-${ids++}`,
      wrapProvider: (given, maxCallTokens) => createDurableProvider(given, context, { maxCallTokens }),
      wrapTool: (tool) => createDurableTool(tool, context, { next: () => toolCalls++ }),
      confirmToolCall: async () => false,
      confirmBudget: async () => false,
    },
  );
  const result = await built.agent.run("Go.").result();
  await built.close();
  expect(result.finalText).toBe("It timed out.");
  const [file] = (await store.list()).map((summary) => store.path(summary.id));
  return readFileSync(file!, "utf8");
}

describe("a durable run's session after a tool call its timeout stopped", () => {
  it("is written byte for byte the same when the run is executed again from its recorded steps", async () => {
    const recorded = new Map<string, unknown>();
    const live = await runAttempt(recorded, false);
    expect(live).toContain("did not finish within 30 ms");
    // The crash comes once the stopped call's step is checkpointed (after the loop went on).
    for (let waits = 0; waits < 50 && ![...recorded.keys()].some((key) => key.endsWith("tool:slow:call-1")); waits++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect([...recorded.keys()].some((key) => key.endsWith("tool:slow:call-1"))).toBe(true);
    const replayed = await runAttempt(recorded, true);
    expect(replayed.split("\n")).toEqual(live.split("\n"));
  });
});

describe("a sub-agent's model call in a durable run", () => {
  it("leaves the run's clock where it was (a replay of its task call never makes it), while the run's own call moves it", async () => {
    const context = createAttempt(new Map(), false);
    const provider = createDurableProvider(createScriptedProvider({ turns: [{ text: "one" }, { text: "two" }] }), context, { maxCallTokens: 10_000 });
    const request = { messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "Hi." }], meta: { id: "m", origin: "user" as const, createdAt: new Date(startMs).toISOString() } }], tools: [], system: "s" };
    await context.scopes.within("tool-0-call-1", async () => {
      for await (const event of provider.stream(request as never)) void event;
    });
    expect(context.clock.now().getTime()).toBe(startMs);
    for await (const event of provider.stream(request as never)) void event;
    expect(context.clock.now().getTime()).toBeGreaterThan(startMs);
  });
});
