import type pg from "pg";
import { ConfigError, SessionError } from "../../types/index.js";
import type { BlobStore } from "../../context/compression/blob-store.js";
import type { LoadedSession } from "../loaded-session.js";
import { parseSessionFile } from "../parse-session-file.js";
import { assertValidSessionId, createSessionId } from "../session-id.js";
import { SESSION_FORMAT, SESSION_FORMAT_VERSION, prefixRecordOf, type HeaderRecord } from "../session-records.js";
import { serializeStartRecord, type CreateSessionOptions, type SessionStore } from "../session-store.js";
import { summarizeSession, type SessionSummary } from "../session-summary.js";
import { createSessionWriter, type SessionWriter } from "../session-writer.js";
import { loadPg } from "./load-pg.js";
import { clientConfig, databaseError, quoteSchema, redactConnectionString, sessionLockKeyOf } from "./postgres-connection.js";
import type { PostgresConnectionOptions } from "./postgres-connection-options.js";
import { blobIdsNamedIn, createPostgresBlobCache } from "./postgres-blob-store.js";
import { createPostgresSessionSink } from "./postgres-session-sink.js";
import { migratePostgresSchema } from "./postgres-schema.js";
import { repairPostgresSession } from "./repair-postgres-session.js";

export interface PostgresSessionStoreOptions extends PostgresConnectionOptions {
  /** The largest session (its records' bytes) the store reads back. Default 256 MiB. */
  maxSessionBytes?: number;
}

/** A session store in PostgreSQL: the same records as the JSONL store, one row per line. */
export interface PostgresSessionStore extends SessionStore {
  /** The blobs of this store's sessions (synchronous, cached: see `createPostgresBlobCache`). */
  readonly blobs: BlobStore;
  /** The schema version the database had before this store migrated it (0: new). */
  readonly migratedFrom: number;
  /**
   * `create` with a fixed id for a run that may be executed again after a crash: the first time it
   * creates the session; later it opens the stored one in replay mode, where the records written
   * again are checked against the stored ones (`session_replay_diverged` if they differ) and only
   * new ones are stored. The session stays byte-identical to one written by a single attempt.
   */
  createOrReplay(options: CreateSessionOptions & { id: string }): Promise<SessionWriter>;
}

const GENERATED_ID_ATTEMPTS = 5;

/** Connects, creates or migrates the tables, and returns the store. Close it to release the pool. */
export async function openPostgresSessionStore(options: PostgresSessionStoreOptions): Promise<PostgresSessionStore> {
  const schema = quoteSchema(options.schema);
  const location = `${redactConnectionString(options.connectionString)}${options.schema ? ` (schema ${options.schema})` : ""}`;
  const maxSessionBytes = options.maxSessionBytes ?? 256 * 1024 * 1024;
  const config = clientConfig(options);
  const pgModule = await loadPg();
  // allowExitOnIdle: a command that is done exits without closing the store (the CLI, a script).
  const pool = new pgModule.Pool({ ...config, max: options.maxConnections ?? 10, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
  // An idle pooled connection the server drops must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  const table = (name: string) => `${schema}.${name}`;
  const blobs = createPostgresBlobCache();
  let migratedFrom: number;
  try {
    const client = await pool.connect();
    try {
      migratedFrom = (await migratePostgresSchema(client, schema, location)).from;
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw databaseError(location, "prepare the session tables", error);
  }

  const lockKeyOf = (id: string) => sessionLockKeyOf(schema, id);
  const path = (id: string) => {
    assertValidSessionId(id);
    return `${location}#session=${id}`;
  };

  const query = async <Row extends pg.QueryResultRow>(doing: string, text: string, values: unknown[]): Promise<Row[]> => {
    try {
      return (await pool.query<Row>(text, values)).rows;
    } catch (error) {
      throw databaseError(location, doing, error);
    }
  };

  const readRecordLines = async (id: string, client?: pg.ClientBase): Promise<string[]> => {
    path(id);
    const run = <Row extends pg.QueryResultRow>(text: string, values: unknown[]) => (client ? client.query<Row>(text, values).then((result) => result.rows) : query<Row>(`read session ${id}`, text, values));
    const [size] = await run<{ count: string; bytes: string }>(
      `SELECT (SELECT count(*) FROM ${table("ctxkit_sessions")} WHERE id = $1) AS count, coalesce(sum(octet_length(record)), 0) AS bytes FROM ${table("ctxkit_session_records")} WHERE session_id = $1`,
      [id],
    );
    if (Number(size?.count ?? 0) === 0) {
      throw new SessionError("session_not_found", `No session ${id} in ${location}. Check the id and the database (list() shows the sessions it holds).`);
    }
    if (Number(size?.bytes ?? 0) > maxSessionBytes) {
      throw new SessionError("session_too_large", `Session ${id} in ${location} holds ${size?.bytes} bytes, more than maxSessionBytes (${maxSessionBytes}); raise the limit to read it.`);
    }
    const rows = await run<{ record: string }>(`SELECT record FROM ${table("ctxkit_session_records")} WHERE session_id = $1 ORDER BY line`, [id]);
    return rows.map((row) => row.record);
  };

  const toBytes = (lines: readonly string[]) => Buffer.from(lines.length === 0 ? "" : `${lines.join("\n")}\n`, "utf8");
  const load = async (id: string): Promise<LoadedSession> => parseSessionFile(toBytes(await readRecordLines(id)), path(id)).session;

  const connectWriter = async (id: string): Promise<pg.Client> => {
    const client = new pgModule.Client(config);
    client.on("error", () => undefined);
    try {
      await client.connect();
      const [lock] = (await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1::bigint) AS locked", [lockKeyOf(id)])).rows;
      if (lock?.locked !== true) {
        throw new SessionError(
          "session_locked",
          `Session ${id} in ${location} is open for writing by another process or worker; one writer per session. Wait for it to finish (or stop it: a stopped writer's lock goes with its connection), then resume.`,
        );
      }
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw databaseError(location, `open session ${id} for writing`, error);
    }
  };

  const writerFor = (client: pg.Client, id: string, nextLine: number, loaded: LoadedSession | undefined, prefix: CreateSessionOptions["prefix"], replay?: readonly string[]): SessionWriter =>
    createSessionWriter({
      handle: createPostgresSessionSink({ client, table, sessionId: id, location, nextLine, lockKey: lockKeyOf(id), blobs, ...(replay ? { replay } : {}) }),
      id,
      path: path(id),
      messageCount: loaded?.messages.length ?? 0,
      requestCount: loaded?.requests.length ?? 0,
      openRunIds: loaded?.runs.filter((run) => run.end === undefined).map((run) => run.start.runId) ?? [],
      warnings: loaded?.warnings ?? [],
      loaded,
      prefix,
      version: loaded?.header.version ?? SESSION_FORMAT_VERSION,
    });

  const create = async (createOptions: CreateSessionOptions): Promise<SessionWriter> => {
    const { createdAt, workspace, prefix } = createOptions;
    if (workspace !== undefined && !workspace.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(workspace)) {
      throw new ConfigError("option_invalid", `The session workspace must be an absolute path, got ${JSON.stringify(workspace)}.`);
    }
    const prefixLine = serializeStartRecord(prefixRecordOf(prefix));
    for (let attempt = 0; attempt < GENERATED_ID_ATTEMPTS; attempt += 1) {
      const id = createOptions.id ?? createSessionId(createdAt);
      const header: HeaderRecord = { type: "header", format: SESSION_FORMAT, version: SESSION_FORMAT_VERSION, id, createdAt, workspace };
      const lines = [serializeStartRecord(header), prefixLine].map((line) => line.slice(0, -1));
      const client = await connectWriter(id);
      let inserted = false;
      try {
        await client.query("BEGIN");
        inserted = (await client.query(`INSERT INTO ${table("ctxkit_sessions")} (id, created_at, line_count) VALUES ($1, $2, 2) ON CONFLICT (id) DO NOTHING`, [id, createdAt])).rowCount === 1;
        if (inserted) await client.query(`INSERT INTO ${table("ctxkit_session_records")} (session_id, line, record) VALUES ($1, 1, $2), ($1, 2, $3)`, [id, lines[0], lines[1]]);
        await client.query(inserted ? "COMMIT" : "ROLLBACK");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        await client.end().catch(() => undefined);
        throw databaseError(location, `create session ${id}`, error);
      }
      if (inserted) return writerFor(client, id, 3, undefined, prefix);
      await client.end().catch(() => undefined);
      if (createOptions.id !== undefined) {
        throw new SessionError("session_exists", `Session ${id} already exists in ${location}. Use open() to append to it, or choose another id.`);
      }
    }
    throw new SessionError("session_id_exhausted", `Could not find an unused session id in ${location} after ${GENERATED_ID_ATTEMPTS} tries.`);
  };

  const createOrReplay = async (createOptions: CreateSessionOptions & { id: string }): Promise<SessionWriter> => {
    const { id } = createOptions;
    const exists = await query<{ id: string }>(`check session ${id}`, `SELECT id FROM ${table("ctxkit_sessions")} WHERE id = $1`, [id]);
    if (exists.length === 0) return create(createOptions);
    const { createdAt, workspace, prefix } = createOptions;
    const header: HeaderRecord = { type: "header", format: SESSION_FORMAT, version: SESSION_FORMAT_VERSION, id, createdAt, workspace };
    // A run started before prefixes recorded where the policies' sections begin wrote its prefix without it.
    const { policySectionsAt: _policySectionsAt, ...withoutSectionsAt } = prefix;
    const expected = [serializeStartRecord(header), serializeStartRecord(prefixRecordOf(prefix))].map((line) => line.slice(0, -1));
    const expectedBefore = serializeStartRecord(prefixRecordOf(withoutSectionsAt)).slice(0, -1);
    const client = await connectWriter(id);
    try {
      const lines = await readRecordLines(id, client);
      if (lines[0] !== expected[0] || (lines[1] !== expected[1] && lines[1] !== expectedBefore)) {
        throw new SessionError("session_replay_diverged", `Session ${id} in ${location} was started with another header or prefix than this attempt would write; nothing was written. A durable run must rebuild the same agent.`);
      }
      await preloadBlobs(lines);
      return writerFor(client, id, lines.length + 1, undefined, prefix, lines.slice(2));
    } catch (error) {
      await client.end().catch(() => undefined);
      throw databaseError(location, `replay session ${id}`, error);
    }
  };

  const open = async (id: string): Promise<SessionWriter> => {
    path(id);
    const client = await connectWriter(id);
    try {
      // Read through the locked connection: nothing can be appended between this read and the first write.
      const lines = await readRecordLines(id, client);
      const { session } = parseSessionFile(toBytes(lines), path(id));
      await preloadBlobs(lines);
      return writerFor(client, id, lines.length + 1, session, session.prefix);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw databaseError(location, `open session ${id}`, error);
    }
  };

  const preloadBlobs = async (lines: readonly string[]): Promise<void> => {
    const ids = blobIdsNamedIn(lines).filter((id) => blobs.get(id) === undefined);
    if (ids.length === 0) return;
    blobs.remember(await query<{ id: string; content: string }>("read the session's blobs", `SELECT id, content FROM ${table("ctxkit_blobs")} WHERE id = ANY($1::text[])`, [ids]));
  };

  const list = async (): Promise<SessionSummary[]> => {
    const rows = await query<{ id: string; updated_at: Date }>("list sessions", `SELECT id, updated_at FROM ${table("ctxkit_sessions")} ORDER BY id`, []);
    const summaries: SessionSummary[] = [];
    // One at a time, like the JSONL store: a damaged session is listed with its error, not hidden.
    for (const row of rows) {
      const updatedAt = row.updated_at.toISOString();
      try {
        summaries.push(summarizeSession(row.id, await load(row.id), updatedAt));
      } catch (error) {
        const code = error instanceof SessionError ? error.code : "unknown";
        summaries.push({ id: row.id, path: path(row.id), updatedAt, error: { code, message: error instanceof Error ? error.message : String(error) } });
      }
    }
    return summaries;
  };

  const withLockedTransaction = async <Result>(id: string, doing: string, work: (client: pg.PoolClient) => Promise<Result>): Promise<Result> => {
    path(id);
    const client = await pool.connect().catch((error: unknown) => {
      throw databaseError(location, doing, error);
    });
    try {
      await client.query("BEGIN");
      const [lock] = (await client.query<{ locked: boolean }>("SELECT pg_try_advisory_xact_lock($1::bigint) AS locked", [lockKeyOf(id)])).rows;
      if (lock?.locked !== true) throw new SessionError("session_locked", `Session ${id} in ${location} is open for writing by another process or worker; it was not changed. Try again when that writer has finished.`);
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw databaseError(location, doing, error);
    } finally {
      client.release();
    }
  };

  const remove = (id: string): Promise<void> =>
    withLockedTransaction(id, `remove session ${id}`, async (client) => {
      await readRecordLines(id, client);
      await client.query(`DELETE FROM ${table("ctxkit_sessions")} WHERE id = $1`, [id]);
    });

  return {
    location,
    blobs,
    migratedFrom,
    createOrReplay,
    create,
    open,
    load,
    list,
    path,
    readRecords: async (id) => toBytes(await readRecordLines(id)),
    repair: (id, lines, repairOptions) =>
      withLockedTransaction(id, `repair session ${id}`, async (client) =>
        repairPostgresSession({ client, table, id, path: path(id), original: await readRecordLines(id, client), removedLines: lines, ...(repairOptions?.order ? { order: repairOptions.order } : {}) }),
      ),
    remove,
    close: () => pool.end(),
  };
}
