import pg from "pg";
import { describe, expect, it } from "vitest";
import { createFreshDatabase } from "../session/postgres/test-support/fresh-database.js";
import { testDatabase } from "../session/postgres/test-support/test-database.js";
import { openDurableDatabase } from "./durable-database.js";

const database = await testDatabase();

describe.skipIf(database.skip !== undefined)(`dead workers across application versions${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  it("claims only dead workers of its own version (or of none recorded), and keeps a worker whose workflows DBOS still holds pending", async () => {
    const url = await createFreshDatabase(database.url!, "durable_workers");
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const opened = await openDurableDatabase(url, 2);
    try {
      const worker = (executorId: string, appVersion: string) => ({ executorId, host: "h", pid: 1, concurrency: 2, appVersion });
      await opened.tables.heartbeat(worker("old-1", "ctxkit-durable-2"));
      await opened.tables.heartbeat(worker("new-1", "ctxkit-durable-3"));
      await opened.tables.heartbeat(worker("new-2", "ctxkit-durable-3"));
      // A worker registered before versions were recorded.
      await admin.query("INSERT INTO ctxkit_workers (executor_id, host, pid, concurrency) VALUES ('unknown-1', 'h', 1, 2)");
      await admin.query("UPDATE ctxkit_workers SET heartbeat_at = to_timestamp(0)");
      expect((await opened.tables.claimStaleExecutors(1_000, "ctxkit-durable-3")).sort()).toEqual(["new-1", "new-2", "unknown-1"]);
      // The version 2 worker waits for a version 2 watchdog.
      expect(await opened.tables.claimStaleExecutors(1_000, "ctxkit-durable-3")).toEqual([]);
      expect(await opened.tables.claimStaleExecutors(1_000, "ctxkit-durable-2")).toEqual(["old-1"]);

      // What DBOS leaves after re-enqueueing its own version's workflows: another version's still pending.
      await admin.query("CREATE SCHEMA dbos");
      await admin.query("CREATE TABLE dbos.workflow_status (workflow_uuid text PRIMARY KEY, executor_id text, status text)");
      await admin.query("INSERT INTO dbos.workflow_status VALUES ('wf-1', 'unknown-1', 'PENDING'), ('wf-2', 'new-1', 'ENQUEUED'), ('wf-3', 'new-2', 'SUCCESS')");
      expect(await opened.tables.forgetWorker("unknown-1")).toBe(false);
      expect(await opened.tables.forgetWorker("new-1")).toBe(true);
      expect(await opened.tables.forgetWorker("new-2")).toBe(true);
      expect((await admin.query<{ executor_id: string }>("SELECT executor_id FROM ctxkit_workers ORDER BY executor_id")).rows.map((row) => row.executor_id)).toEqual(["old-1", "unknown-1"]);
    } finally {
      await opened.close();
      await admin.end();
    }
  }, 60_000);
});
