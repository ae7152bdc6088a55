import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createPostgresSessionStore } from "../session/create-postgres-session-store.js";
import { testDatabase } from "../session/postgres/test-support/test-database.js";
import { useDurableTestDatabase } from "./test-support/use-durable-test-database.js";
import { createNotes } from "../tools/notes/index.js";
import type { ModelRequest } from "../types/index.js";
import { assembleDurableParts, type DurableAgentBuilder } from "./durable-agent-builder.js";
import { startDurableWorker } from "./start-durable-worker.js";
import { crashAndRecover } from "./test-support/crash-and-recover.js";
import { hangOnce, type HangOnce } from "./test-support/hang-once.js";

const database = await testDatabase();

/**
 * An agent with session notes: it writes a note, reads the notes back, then answers. Its answer
 * hangs once: the call in flight when the test stops the worker, as a crash would leave it.
 */
function notingAgent(notesDirectory: string, hang: HangOnce): DurableAgentBuilder {
  return async (input, assembly) => {
    const turnOf = (request: ModelRequest) => request.messages.filter((message) => message.role === "tool").length;
    const scripted = createScriptedProvider({
      turns: (request) => {
        const turn = turnOf(request);
        if (turn === 0) return { toolCalls: [{ id: "call-0", name: "notes_write", arguments: { text: "Decision: keep the v2 parser." } }] };
        if (turn === 1) return { toolCalls: [{ id: "call-1", name: "notes_read", arguments: {} }] };
        return { text: "Noted." };
      },
    });
    const provider = hangOnce(scripted, (request) => turnOf(request) === 2, hang);
    const notes = createNotes({ path: join(notesDirectory, `${String(input.runKey)}.md`), ...(assembly.notesReplay ? { replay: assembly.notesReplay } : {}) });
    return assembleDurableParts({ provider, tools: [], policies: [notes], system: "You keep notes.", maxCallTokens: 10_000 }, assembly);
  };
}

describe.skipIf(database.skip !== undefined)(`a durable run with notes${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  const durableTest = useDurableTestDatabase(database, "durable_notes");

  it("is taken over after a crash that followed a note, and finishes with the session it started (the same notes line in each request)", async () => {
    const notesDirectory = await mkdtemp(join(tmpdir(), "ctxkit-durable-notes-"));
    let reached!: () => void;
    const hangReached = new Promise<void>((resolve) => (reached = resolve));
    const builders = { noting: notingAgent(notesDirectory, { once: true, reached }) };
    durableTest.worker = await startDurableWorker({ connectionString: durableTest.url, executorId: "worker-crashed", concurrency: 1, builders });
    const submitted = await durableTest.client.submit({ task: "Keep a note.", agent: { kind: "noting", input: { runKey: "noted" } } });
    await hangReached;
    // The crash: the worker goes away with the last model call in flight, the note written; another
    // worker's watchdog recovers the run, which puts the notes back as the run started and writes the note again.
    durableTest.worker = await crashAndRecover(durableTest.worker, durableTest.admin, builders, durableTest.url);
    const done = await durableTest.client.wait(submitted.id, 60_000);
    expect(done.result?.error).toBeUndefined();
    expect(done).toMatchObject({ status: "completed", attempts: 2, result: { finalText: "Noted." } });
    // The notes tools are not at-most-once calls (no run ever waits for a person about them).
    expect((await durableTest.admin.query("SELECT call_key FROM ctxkit_tool_calls WHERE run_id = $1", [submitted.id])).rows).toEqual([]);
    expect(await readFile(join(notesDirectory, "noted.md"), "utf8")).toBe("Decision: keep the v2 parser.\n");
    const sessions = await createPostgresSessionStore({ connectionString: durableTest.url });
    try {
      const session = await sessions.load(done.sessionId);
      expect(session.warnings).toEqual([]);
      expect(session.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant"]);
      // The first request had no notes line, as when the run made it; the later ones say the note is there.
      const tails = session.requests.map((request) => (typeof request.tail?.content === "string" ? request.tail.content : ""));
      expect(tails.map((tail) => tail.includes("<agent_notes>"))).toEqual([false, true, true]);
    } finally {
      await sessions.close();
    }
  }, 120_000);
});
