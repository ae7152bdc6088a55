import type pg from "pg";
import { SessionError } from "../types/index.js";
import { advisoryKeyOf } from "../session/postgres/postgres-connection.js";

/**
 * ctxkit's own tables for durable runs, beside DBOS's (which live in the `dbos` schema): the run
 * records a worker rebuilds an agent from, the side-effect ledger, model-call attempts, worker
 * heartbeats and shared budgets. Versioned apart from the session tables, one migration per version.
 */
const migrations: ReadonlyArray<(table: (name: string) => string) => string[]> = [
  (table) => [
    `CREATE TABLE ${table("ctxkit_durable_schema_version")} (version integer NOT NULL)`,
    `INSERT INTO ${table("ctxkit_durable_schema_version")} (version) VALUES (0)`,
    `CREATE TABLE ${table("ctxkit_runs")} (id text PRIMARY KEY, task text NOT NULL, agent jsonb NOT NULL, session_id text NOT NULL, budget_scope text, status text NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now(), attempts integer NOT NULL DEFAULT 0, executor text, result jsonb, paused_call jsonb)`,
    `CREATE TABLE ${table("ctxkit_tool_calls")} (run_id text NOT NULL, call_key text NOT NULL, tool text NOT NULL, state text NOT NULL, executor text NOT NULL, started_at timestamptz NOT NULL DEFAULT now(), finished_at timestamptz, PRIMARY KEY (run_id, call_key))`,
    `CREATE TABLE ${table("ctxkit_model_calls")} (run_id text NOT NULL, call_key text NOT NULL, attempts integer NOT NULL, PRIMARY KEY (run_id, call_key))`,
    `CREATE TABLE ${table("ctxkit_workers")} (executor_id text PRIMARY KEY, host text NOT NULL, pid integer NOT NULL, concurrency integer NOT NULL, started_at timestamptz NOT NULL DEFAULT now(), heartbeat_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE ${table("ctxkit_budgets")} (scope text PRIMARY KEY, limit_tokens bigint NOT NULL, spent_tokens bigint NOT NULL DEFAULT 0, reserved_tokens bigint NOT NULL DEFAULT 0, max_call_tokens bigint NOT NULL)`,
  ],
  // 2: the W3C traceparent a run's spans nest under (the submitter's, then the run span's first segment),
  // and each model call's reservation of a shared budget (a call made again after a crash reuses it).
  (table) => [
    `ALTER TABLE ${table("ctxkit_runs")} ADD COLUMN traceparent text`,
    `CREATE TABLE ${table("ctxkit_budget_reservations")} (scope text NOT NULL, call_key text NOT NULL, tokens bigint NOT NULL, reserved_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (scope, call_key))`,
  ],
  // 3: the DBOS application version each worker runs, so a watchdog claims only the dead workers whose
  // workflows it can re-enqueue (DBOS recovers only workflows of its own version). NULL: a worker
  // that registered before this column (its version is unknown).
  (table) => [`ALTER TABLE ${table("ctxkit_workers")} ADD COLUMN app_version text`],
];

export const DURABLE_SCHEMA_VERSION = migrations.length;

export async function migrateDurableSchema(client: pg.ClientBase, schema: string, location: string): Promise<void> {
  const table = (name: string) => `${schema}.${name}`;
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [advisoryKeyOf(`ctxkit-durable-schema:${schema}`)]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    const exists = await client.query<{ found: string | null }>("SELECT to_regclass($1) AS found", [table("ctxkit_durable_schema_version")]);
    const from = exists.rows[0]?.found ? Number((await client.query<{ version: number }>(`SELECT version FROM ${table("ctxkit_durable_schema_version")}`)).rows[0]?.version ?? 0) : 0;
    if (from > DURABLE_SCHEMA_VERSION) {
      throw new SessionError("session_schema_unsupported", `The durable runs in ${location} use schema version ${from}, but this ctxkit knows versions up to ${DURABLE_SCHEMA_VERSION}. Upgrade ctxkit on this machine.`);
    }
    for (let version = from; version < DURABLE_SCHEMA_VERSION; version += 1) for (const statement of migrations[version]!(table)) await client.query(statement);
    if (from < DURABLE_SCHEMA_VERSION) await client.query(`UPDATE ${table("ctxkit_durable_schema_version")} SET version = $1`, [DURABLE_SCHEMA_VERSION]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
