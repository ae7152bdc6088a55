import { describe, expect, it } from "vitest";
import { testDatabase } from "../session/postgres/test-support/test-database.js";
import { useDurableTestDatabase } from "./test-support/use-durable-test-database.js";
import { sessionLockKeyOf } from "../session/postgres/postgres-connection.js";
import { openDurableDatabase } from "./durable-database.js";
import { askPerson } from "./durable-confirmation.js";
import { durableTestContext } from "./test-support/durable-test-context.js";

const database = await testDatabase();

/**
 * Resuming a cancelled run whose cancelled execution still holds the run's session. No worker runs
 * here: a test connection holds the session's lock as that execution's writer would.
 */
describe.skipIf(database.skip !== undefined)(`resuming a cancelled durable run${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  const durableTest = useDurableTestDatabase(database, "resume_wait");

  const cancelledRunHeldBySession = async () => {
    const submitted = await durableTest.client.submit({ task: "wait", agent: { kind: "none", input: {} } });
    await durableTest.client.cancel(submitted.id);
    const key = sessionLockKeyOf(`"public"`, submitted.sessionId);
    await durableTest.admin.query("SELECT pg_advisory_lock($1::bigint)", [key]);
    return { id: submitted.id, release: () => durableTest.admin.query("SELECT pg_advisory_unlock($1::bigint)", [key]) };
  };

  it("says once that it waits for the cancelled execution, and resumes the run when that lets the session go", async () => {
    const run = await cancelledRunHeldBySession();
    const waits: string[] = [];
    const resumed = await durableTest.client.resume(run.id, undefined, {
      onWaiting: (waiting) => {
        waits.push(waiting.id);
        void run.release();
      },
    });
    expect(waits).toEqual([run.id]);
    expect(resumed.status).toBe("queued");
  }, 60_000);

  it("gives up when its signal aborts, leaving the run cancelled", async () => {
    const run = await cancelledRunHeldBySession();
    const stop = new AbortController();
    try {
      await expect(durableTest.client.resume(run.id, undefined, { signal: stop.signal, onWaiting: () => stop.abort(new Error("stopped waiting")) })).rejects.toThrow("stopped waiting");
      expect((await durableTest.client.get(run.id)).status).toBe("cancelled");
    } finally {
      await run.release();
    }
  }, 60_000);

  it("leaves a run cancelled when its execution, not having seen the cancel yet, asks a person (an answer to it reached no workflow, and the run hung)", async () => {
    const submitted = await durableTest.client.submit({ task: "ask", agent: { kind: "none", input: {} } });
    await durableTest.client.cancel(submitted.id);
    const runs = await openDurableDatabase(durableTest.url, 2);
    try {
      const asked: string[] = [];
      const context = durableTestContext({
        runId: submitted.id,
        tables: runs.tables,
        // What the person would see meanwhile.
        receive: async () => void asked.push((await durableTest.client.get(submitted.id)).status),
      });
      await askPerson(context, { tool: "bash", callKey: "confirm-0", reason: "confirmation" });
      expect(asked).toEqual(["cancelled"]);
      expect(await durableTest.client.get(submitted.id)).toMatchObject({ status: "cancelled" });
      expect((await durableTest.client.get(submitted.id)).pausedCall).toBeUndefined();
    } finally {
      await runs.close();
    }
  }, 60_000);
});
