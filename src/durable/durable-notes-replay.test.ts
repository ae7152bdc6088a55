import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createSessionStore } from "../session/session-store.js";
import type { PostgresSessionStore } from "../session/postgres/postgres-session-store.js";
import { createNotes } from "../tools/notes/index.js";
import type { ModelRequest, Tool } from "../types/index.js";
import type { DurableRunRecord } from "./durable-run-record.js";
import { assembleDurableParts, type DurableAssembly } from "./durable-agent-builder.js";
import { runDurableWorkflow, type DurableWorkflowDependencies } from "./run-durable-workflow.js";
import { recordingStep } from "./test-support/durable-test-context.js";
import { DURABLE_APP_VERSION } from "./durable-database.js";

const record = { id: "run-1", task: "keep a note", agent: { kind: "noting", input: {} }, sessionId: "20261203-090000-run001", status: "running", createdAt: "2026-12-03T09:00:00.000Z", attempts: 1 } as unknown as DurableRunRecord;

/**
 * A scripted agent with session notes: it writes a note, reads the notes back, then answers; each turn
 * follows from the request alone. `delegated`: the write is made by its `delegate` tool, inside that
 * call, as a fork sub-agent's is inside its parent's `task` call.
 */
function notingBuilder(notesPath: string, delegated = false) {
  const turnOf = (request: ModelRequest) => request.messages.filter((message) => message.role === "tool").length;
  return (_input: unknown, assembly: DurableAssembly) => {
    const notes = createNotes({ path: notesPath, ...(assembly.notesReplay ? { replay: assembly.notesReplay } : {}) });
    const delegate: Tool<Record<string, never>> = {
      name: "delegate",
      description: "Has a helper keep the note.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      risk: "read",
      execute: async (_args, context) => {
        const write = notes.tools!.find((tool) => tool.name === "notes_write")!;
        return write.execute({ text: "Decision: keep the v2 parser." }, context).then(String, (error: Error) => `The helper could not: ${error.message}`);
      },
    };
    const firstCall = delegated ? { id: "call-0", name: "delegate", arguments: {} } : { id: "call-0", name: "notes_write", arguments: { text: "Decision: keep the v2 parser." } };
    return assembleDurableParts(
      {
        provider: createScriptedProvider({
          turns: (request) => {
            const done = turnOf(request);
            // No cache estimate: the provider a later execution builds has not seen the calls before it.
            const usage = { cachedInputTokens: 0 };
            if (done === 0) return { toolCalls: [firstCall], usage };
            if (done === 1) return { toolCalls: [{ id: "call-1", name: "notes_read", arguments: {} }], usage };
            return { text: "Noted.", usage };
          },
        }),
        tools: [delegate],
        policies: [notes],
        system: "You keep notes.",
        maxCallTokens: 10_000,
      },
      assembly,
    );
  };
}

/**
 * One execution of the run's workflow on a fake engine whose steps are recorded in `recorded` (a
 * later execution gets the recorded ones back, as DBOS gives a recovered workflow): the session it
 * wrote, in a folder of its own, and how the run ended.
 */
async function execute(recorded: Map<string, unknown>, replay: boolean, notesPath: string, delegated = false) {
  const sessions = createSessionStore({ directory: await mkdtemp(join(tmpdir(), "ctxkit-durable-notes-")) });
  const statuses: string[] = [];
  const dependencies = {
    executorId: replay ? "worker-2" : "worker-1",
    tables: {
      markStarted: async () => undefined,
      getRun: async () => record,
      setStatus: async (_id: string, status: string) => void statuses.push(status),
      failIfRunning: async () => (statuses.push("failed"), true),
      cancelledAmong: async () => [],
      repeatedModelCalls: async () => 0,
      countModelCall: async () => 1,
      startToolCall: async () => "started",
      finishToolCall: async () => undefined,
    },
    sessions: { ...sessions, createOrReplay: (options: Parameters<typeof sessions.create>[0]) => sessions.create(options) } as unknown as PostgresSessionStore,
    budget: { chargeEnded: async () => undefined },
    builders: { noting: notingBuilder(notesPath, delegated) },
    step: recordingStep(recorded, replay),
    receive: async () => undefined,
    inStep: () => false,
    now: () => Date.parse(record.createdAt) + recorded.size * 1_000,
    watchCancellation: () => () => undefined,
  } as unknown as DurableWorkflowDependencies;
  const result = await runDurableWorkflow(record.id, dependencies).catch((error: unknown) => ({ error }));
  const session = await readFile(sessions.path(record.sessionId), "utf8").catch(() => "");
  return { result, statuses, session };
}

/** The steps a worker killed right after the run's second model call leaves behind (the calls after it never recorded). */
function killedAfterSecondModelCall(recorded: Map<string, unknown>): Map<string, unknown> {
  const kept = new Map<string, unknown>();
  let modelCalls = 0;
  for (const [key, value] of recorded) {
    if (modelCalls === 2) break;
    kept.set(key, value);
    if (key.endsWith(":model-call")) modelCalls += 1;
  }
  return kept;
}

describe("a durable run with notes taken over after a crash", () => {
  it("gets the notes line its first requests had, and writes its session byte for byte as the run did", async () => {
    const notesPath = join(await mkdtemp(join(tmpdir(), "ctxkit-durable-notes-")), "notes", `${record.sessionId}.md`);
    const recorded = new Map<string, unknown>();
    const first = await execute(recorded, false, notesPath);
    expect(first.statuses).toEqual(["completed"]);
    // The first request had no notes; the ones after the write say they exist.
    expect(first.session).toContain("<agent_notes>");
    // The notes as the kill left them (the write done): the first requests are rebuilt from those.
    expect(await readFile(notesPath, "utf8")).toBe("Decision: keep the v2 parser.\n");
    const takenOver = await execute(killedAfterSecondModelCall(recorded), true, notesPath);
    expect(takenOver.statuses).toEqual(["completed"]);
    expect(takenOver.session.split("\n")).toEqual(first.session.split("\n"));
    expect(await readFile(notesPath, "utf8")).toBe("Decision: keep the v2 parser.\n");
  });

  it("rebuilds the notes on a worker whose host has no notes file (the run's tools write them again)", async () => {
    const notesPath = join(await mkdtemp(join(tmpdir(), "ctxkit-durable-notes-")), "notes", `${record.sessionId}.md`);
    const recorded = new Map<string, unknown>();
    const first = await execute(recorded, false, notesPath);
    await rm(join(notesPath, ".."), { recursive: true });
    const takenOver = await execute(killedAfterSecondModelCall(recorded), true, notesPath);
    expect(takenOver.statuses).toEqual(["completed"]);
    expect(takenOver.session.split("\n")).toEqual(first.session.split("\n"));
    expect(await readFile(notesPath, "utf8")).toBe("Decision: keep the v2 parser.\n");
  });

  it("records the notes as its first step, a layout version 4's runs lack, so its workflow version is 5", async () => {
    const notesPath = join(await mkdtemp(join(tmpdir(), "ctxkit-durable-notes-")), "notes", `${record.sessionId}.md`);
    const recorded = new Map<string, unknown>();
    await execute(recorded, false, notesPath);
    // A run recorded under ctxkit-durable-4 has its first model call where this one has notes-start:
    // replayed by this workflow it would fail, so such runs must wait for a worker of their own version.
    expect([...recorded.keys()][0]).toBe("0:notes-start");
    expect(DURABLE_APP_VERSION).toBe("ctxkit-durable-5");
  });

  it("refuses a write made inside another recorded call (a fork's), which a replay would not make again", async () => {
    const notesPath = join(await mkdtemp(join(tmpdir(), "ctxkit-durable-notes-")), "notes", `${record.sessionId}.md`);
    const recorded = new Map<string, unknown>();
    const first = await execute(recorded, false, notesPath, true);
    expect(first.statuses).toEqual(["completed"]);
    expect(first.session).toContain("A sub-agent cannot write the run's notes in a durable run");
    // Made, the write would be gone once the notes are put back, and the requests after it would lose their notes line.
    const takenOver = await execute(killedAfterSecondModelCall(recorded), true, notesPath, true);
    expect(takenOver.statuses).toEqual(["completed"]);
    expect(takenOver.session.split("\n")).toEqual(first.session.split("\n"));
  });
});
