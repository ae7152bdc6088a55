import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createFreshDatabase } from "../session/postgres/test-support/fresh-database.js";
import { testDatabase } from "../session/postgres/test-support/test-database.js";
import { openDurableDatabase } from "./durable-database.js";
import { DURABLE_SCHEMA_VERSION } from "./durable-schema.js";

const database = await testDatabase();

describe.skipIf(database.skip !== undefined)(`the durable-run tables${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  it("migrates a database made by durable schema version 1, keeping its runs, ledgers and budgets", async () => {
    const url = await createFreshDatabase(database.url!, "durable_v1");
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(await readFile(fileURLToPath(new URL("./fixtures/durable-schema-v1.sql", import.meta.url)), "utf8"));
      const opened = await openDurableDatabase(url, 2);
      try {
        expect((await admin.query<{ version: number }>("SELECT version FROM ctxkit_durable_schema_version")).rows).toEqual([{ version: DURABLE_SCHEMA_VERSION }]);
        expect(await opened.tables.getRun("run-v1-done")).toMatchObject({
          task: "Summarise README.md",
          agent: { kind: "cli", input: { workspace: "/home/dev/project" } },
          sessionId: "20261201-080000-aaaaaa",
          budgetScope: "team",
          status: "completed",
          attempts: 2,
          executor: "host-1-100-abcdef",
          result: { finalText: "Done.", repeatedModelCalls: 1 },
        });
        expect(await opened.tables.getRun("run-v1-paused")).toMatchObject({ status: "needs_confirmation", pausedCall: { tool: "bash", callKey: "tool-0-call-1" } });
        expect(await opened.tables.startToolCall("run-v1-paused", "tool-0-call-1", "bash", "host-3")).toBe("interrupted");
        expect(await opened.tables.startToolCall("run-v1-done", "tool-0-call-1", "read", "host-3")).toBe("finished");
        expect(await opened.tables.repeatedModelCalls("run-v1-done")).toBe(1);
        expect(await opened.budget.read("team")).toEqual({ limitTokens: 50_000, spentTokens: 1_280, reservedTokens: 0, maxCallTokens: 8_000 });
        // What version 2 added works on the migrated tables: a traceparent, and reservations.
        await opened.tables.setTraceparent("run-v1-done", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        expect((await opened.tables.getRun("run-v1-done")).traceparent).toBe("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        expect(await opened.budget.reserve("team", "run-v1-new/model-0", 1_000)).toEqual({ reserved: true });
        // What version 3 added: a worker's app version; the v1 worker's is unknown, so a watchdog of any version may claim it.
        expect((await admin.query("SELECT app_version FROM ctxkit_workers")).rows).toEqual([{ app_version: null }]);
        expect(await opened.tables.claimStaleExecutors(0, "ctxkit-durable-3")).toEqual(["host-2-200-fedcba"]);
      } finally {
        await opened.close();
      }
    } finally {
      await admin.end();
    }
  }, 60_000);
});
