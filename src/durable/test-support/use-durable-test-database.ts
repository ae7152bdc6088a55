import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { createFreshDatabase } from "../../session/postgres/test-support/fresh-database.js";
import type { TestDatabase } from "../../session/postgres/test-support/test-database.js";
import { openDurableClient, type DurableClient } from "../durable-client.js";
import type { DurableWorker } from "../start-durable-worker.js";

export interface DurableTestDatabase {
  /** The fresh database's URL (workers connect to it). */
  readonly url: string;
  /** A connection of the test's own: rows a crash would leave behind, side effects, locks to hold. */
  readonly admin: pg.Client;
  readonly client: DurableClient;
  /** The worker the tests started last, if any: stopped after them. */
  worker: DurableWorker | undefined;
}

export interface DurableTestDatabaseOptions {
  /** Creates `test_side_effects (run_key, step)`, which `recordSideEffectTool` writes to. */
  sideEffectsTable?: boolean;
}

/**
 * What the durable test files share, as hooks of the `describe` that calls it: before its tests, a
 * new database on the test server, a connection for the tests' own queries and a durable client;
 * after them, the worker is stopped and the client and the connection closed. Under a skipped
 * `describe` (no PostgreSQL) the hooks do not run.
 */
export function useDurableTestDatabase(database: TestDatabase, label: string, options: DurableTestDatabaseOptions = {}): DurableTestDatabase {
  let opened: { url: string; admin: pg.Client; client: DurableClient } | undefined;
  const ready = () => {
    if (opened === undefined) throw new Error(`The '${label}' test database is used before its beforeAll hook opened it (or after it failed).`);
    return opened;
  };
  const context: DurableTestDatabase = {
    get url() {
      return ready().url;
    },
    get admin() {
      return ready().admin;
    },
    get client() {
      return ready().client;
    },
    worker: undefined,
  };
  let admin: pg.Client | undefined;
  let client: DurableClient | undefined;
  beforeAll(async () => {
    if (database.url === undefined) throw new Error(`No test database: ${database.skip}`);
    const url = await createFreshDatabase(database.url, label);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    if (options.sideEffectsTable === true) await admin.query("CREATE TABLE test_side_effects (run_key text NOT NULL, step integer NOT NULL)");
    client = await openDurableClient(url);
    opened = { url, admin, client };
  }, 60_000);
  afterAll(async () => {
    await context.worker?.stop();
    await client?.close();
    await admin?.end();
  }, 60_000);
  return context;
}
