import type pg from "pg";
import { loadPg } from "../session/postgres/load-pg.js";
import { clientConfig, databaseError, redactConnectionString } from "../session/postgres/postgres-connection.js";
import { migrateDurableSchema } from "./durable-schema.js";
import { createDurableTables, type DurableTables } from "./durable-tables.js";
import { createSharedBudget, type SharedBudget } from "./shared-budget.js";

/** The DBOS application every ctxkit worker and client belongs to, and its one queue. */
export const DURABLE_APPLICATION = "ctxkit";
export const DURABLE_QUEUE = "ctxkit-runs";
export const DURABLE_WORKFLOW = "ctxkit-run";
/**
 * Workers only run workflows of their own application version: bump it when the workflow's steps or
 * their outputs change (2: no pause/resume steps, a tool step records `threw`, a `deadline` step, the
 * workflow takes options; 3: a run with a shared budget records the scope's share before each call in a
 * `budget-share` step) — and also when what a replay rebuilds differs from what was recorded: the
 * request bodies a run sends (provider fields the durable provider passes through, such as
 * `maxOutputTokens` or `reasoningEffort`, change them, and a replayed run must send what its recorded
 * steps answered), the agent a builder assembles from the same input, or how a step's key is named
 * (4: the Anthropic provider sends a run's `reasoningEffort` as `output_config.effort`, where 3 ignored
 * it, so a run recorded under 3 with an effort would go on under 4 with other bodies than it began with;
 * 5: a run with session notes records them in a `notes-start` step before its first request and its
 * notes tools are no longer steps, so a run recorded under 4 would meet that step where its first
 * model call was recorded and fail).
 * A run enqueued or interrupted under another version waits for a worker of that version: a
 * watchdog claims only dead workers of its own version (ctxkit_workers.app_version), so an older
 * version's runs are re-enqueued once a worker of that version is alive.
 */
export const DURABLE_APP_VERSION = "ctxkit-durable-5";

export interface DurableDatabase {
  pool: pg.Pool;
  tables: DurableTables;
  budget: SharedBudget;
  location: string;
  close(): Promise<void>;
}

/** Connects to the runs' database and creates or migrates ctxkit's durable-run tables (schema `public`). */
export async function openDurableDatabase(connectionString: string, maxConnections = 10): Promise<DurableDatabase> {
  const location = redactConnectionString(connectionString);
  const pgModule = await loadPg();
  const pool = new pgModule.Pool({ ...clientConfig({ connectionString }), max: maxConnections, allowExitOnIdle: true });
  pool.on("error", () => undefined);
  try {
    const client = await pool.connect();
    try {
      await migrateDurableSchema(client, `"public"`, location);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw databaseError(location, "prepare the durable-run tables", error);
  }
  const table = (name: string) => `"public".${name}`;
  return { pool, tables: createDurableTables(pool, `"public"`, location), budget: createSharedBudget(pool, table), location, close: () => pool.end() };
}
