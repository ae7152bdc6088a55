import type pg from "pg";
import { SessionError } from "../../types/index.js";
import { advisoryKeyOf } from "./postgres-connection.js";

/**
 * The session tables, one migration per schema version, never edited once released: a database made
 * by an older ctxkit is brought forward step by step (the v1 layout is pinned by
 * `fixtures/schema-v1.sql`, which the tests migrate). `table` qualifies a name with the store's schema.
 */
const migrations: ReadonlyArray<(table: (name: string) => string) => string[]> = [
  // v1: sessions and their records, one row per JSONL line, byte for byte.
  (table) => [
    `CREATE TABLE ${table("ctxkit_schema_version")} (version integer NOT NULL)`,
    `INSERT INTO ${table("ctxkit_schema_version")} (version) VALUES (0)`,
    `CREATE TABLE ${table("ctxkit_sessions")} (id text PRIMARY KEY, created_at text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE ${table("ctxkit_session_records")} (session_id text NOT NULL REFERENCES ${table("ctxkit_sessions")} (id) ON DELETE CASCADE, line integer NOT NULL, record text NOT NULL, PRIMARY KEY (session_id, line))`,
  ],
  // v2: a line count (writers append without counting), copies kept by repairs, content-addressed blobs.
  (table) => [
    `ALTER TABLE ${table("ctxkit_sessions")} ADD COLUMN line_count integer NOT NULL DEFAULT 0`,
    `UPDATE ${table("ctxkit_sessions")} AS session SET line_count = (SELECT count(*) FROM ${table("ctxkit_session_records")} AS record WHERE record.session_id = session.id)`,
    `CREATE TABLE ${table("ctxkit_session_repairs")} (session_id text NOT NULL, repair integer NOT NULL, line integer NOT NULL, record text NOT NULL, removed boolean NOT NULL, repaired_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (session_id, repair, line))`,
    `CREATE TABLE ${table("ctxkit_blobs")} (id text PRIMARY KEY, content text NOT NULL)`,
  ],
];

export const POSTGRES_SCHEMA_VERSION = migrations.length;

/**
 * Creates or upgrades the tables in `schema` (quoted) to `POSTGRES_SCHEMA_VERSION`, in one
 * transaction under an advisory lock, so workers starting together migrate once. A database of a
 * newer version is refused: this ctxkit would not know what it may write there.
 */
export async function migratePostgresSchema(client: pg.ClientBase, schema: string, location: string): Promise<{ from: number; to: number }> {
  const table = (name: string) => `${schema}.${name}`;
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [advisoryKeyOf(`ctxkit-schema:${schema}`)]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    const exists = await client.query<{ found: string | null }>("SELECT to_regclass($1) AS found", [table("ctxkit_schema_version")]);
    const from = exists.rows[0]?.found ? Number((await client.query<{ version: number }>(`SELECT version FROM ${table("ctxkit_schema_version")}`)).rows[0]?.version ?? 0) : 0;
    if (from > POSTGRES_SCHEMA_VERSION) {
      throw new SessionError(
        "session_schema_unsupported",
        `The sessions in ${location} use schema version ${from}, but this ctxkit knows versions up to ${POSTGRES_SCHEMA_VERSION}. Upgrade ctxkit (npm install ctxkit@latest) to use that database.`,
      );
    }
    for (let version = from; version < POSTGRES_SCHEMA_VERSION; version += 1) {
      for (const statement of migrations[version]!(table)) await client.query(statement);
    }
    if (from < POSTGRES_SCHEMA_VERSION) await client.query(`UPDATE ${table("ctxkit_schema_version")} SET version = $1`, [POSTGRES_SCHEMA_VERSION]);
    await client.query("COMMIT");
    return { from, to: POSTGRES_SCHEMA_VERSION };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
