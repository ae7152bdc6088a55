import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshDatabase } from "../session/postgres/test-support/fresh-database.js";
import { testDatabase } from "../session/postgres/test-support/test-database.js";
import { sessionLockKeyOf } from "../session/postgres/postgres-connection.js";
import { openDurableClient, type DurableClient } from "./durable-client.js";

const database = await testDatabase();

/**
 * Resuming a cancelled run whose cancelled execution still holds the run's session. No worker runs
 * here: a test connection holds the session's lock as that execution's writer would.
 */
describe.skipIf(database.skip !== undefined)(`resuming a cancelled durable run${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  let url: string;
  let client: DurableClient;
  let holder: pg.Client;

  beforeAll(async () => {
    url = await createFreshDatabase(database.url!, "resume_wait");
    client = await openDurableClient(url);
    holder = new pg.Client({ connectionString: url });
    await holder.connect();
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await holder?.end();
  }, 60_000);

  const cancelledRunHeldBySession = async () => {
    const submitted = await client.submit({ task: "wait", agent: { kind: "none", input: {} } });
    await client.cancel(submitted.id);
    const key = sessionLockKeyOf(`"public"`, submitted.sessionId);
    await holder.query("SELECT pg_advisory_lock($1::bigint)", [key]);
    return { id: submitted.id, release: () => holder.query("SELECT pg_advisory_unlock($1::bigint)", [key]) };
  };

  it("says once that it waits for the cancelled execution, and resumes the run when that lets the session go", async () => {
    const run = await cancelledRunHeldBySession();
    const waits: string[] = [];
    const resumed = await client.resume(run.id, undefined, {
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
      await expect(client.resume(run.id, undefined, { signal: stop.signal, onWaiting: () => stop.abort(new Error("stopped waiting")) })).rejects.toThrow("stopped waiting");
      expect((await client.get(run.id)).status).toBe("cancelled");
    } finally {
      await run.release();
    }
  }, 60_000);
});
