import type pg from "pg";
import { SessionError } from "../../types/index.js";
import type { SessionSink } from "../session-writer.js";
import { databaseError } from "./postgres-connection.js";
import type { PendingBlobs } from "./postgres-blob-store.js";

export interface PostgresSinkOptions {
  /** A connection of its own that holds the session's advisory lock: writes go through it, so a lost lock stops them. */
  client: pg.Client;
  table: (name: string) => string;
  sessionId: string;
  location: string;
  /** The 1-based line the next record gets. */
  nextLine: number;
  lockKey: string;
  blobs: PendingBlobs;
  /**
   * Lines already stored that the writer is expected to write again, in order (a durable run
   * re-executed after a crash): each is compared and skipped, and only what follows is stored.
   */
  replay?: readonly string[];
}

/**
 * The Postgres end of a `SessionWriter`: each write stores whole record lines in one transaction,
 * together with the blobs put since the last write, so a record never names a blob that is not
 * stored. A failed transaction stores nothing, and the writer sends the same lines again.
 */
export function createPostgresSessionSink(options: PostgresSinkOptions): SessionSink {
  const { client, table, sessionId, location } = options;
  let nextLine = options.nextLine;
  const replay = options.replay ?? [];
  let replayed = 0;
  let lost: unknown;
  // A dropped connection releases the advisory lock on the server: from then on another writer may
  // have the session, so this one must never write again.
  client.on("error", (error) => {
    lost ??= error;
  });
  client.on("end", () => {
    lost ??= new Error("the connection closed");
  });

  const write = async (buffer: Buffer, offset: number, length: number): Promise<{ bytesWritten: number }> => {
    if (lost !== undefined) {
      throw new SessionError(
        "session_lock_lost",
        `The connection that held session ${sessionId}'s lock in ${location} was lost (${lost instanceof Error ? lost.message : String(lost)}); another writer may have it now. Nothing more was written: open the session again to continue.`,
      );
    }
    const text = buffer.toString("utf8", offset, offset + length);
    if (!text.endsWith("\n")) throw new SessionError("session_write_refused", `Refusing to store a partial record line in session ${sessionId} (${location}). Nothing was written.`);
    const written = text.slice(0, -1).split("\n");
    const records: string[] = [];
    for (const record of written) {
      if (replayed >= replay.length) records.push(record);
      else if (record === replay[replayed]) replayed += 1;
      else {
        throw new SessionError(
          "session_replay_diverged",
          `Session ${sessionId} in ${location}: record ${replayed + 3}, written again after a crash, differs from the one stored by the first attempt; nothing was written. A durable run must rebuild the same agent (same config, tools and prompt).`,
        );
      }
    }
    if (records.length === 0) return { bytesWritten: length };
    const lines = records.map((_, index) => nextLine + index);
    const blobs = options.blobs.take();
    try {
      await client.query("BEGIN");
      if (blobs.length > 0) {
        await client.query(`INSERT INTO ${table("ctxkit_blobs")} (id, content) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (id) DO NOTHING`, [blobs.map((blob) => blob.id), blobs.map((blob) => blob.content)]);
      }
      await client.query(`INSERT INTO ${table("ctxkit_session_records")} (session_id, line, record) SELECT $1, * FROM unnest($2::integer[], $3::text[])`, [sessionId, lines, records]);
      await client.query(`UPDATE ${table("ctxkit_sessions")} SET updated_at = now(), line_count = $2 WHERE id = $1`, [sessionId, nextLine + records.length - 1]);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      options.blobs.restore(blobs);
      throw databaseError(location, `append to session ${sessionId}`, error);
    }
    nextLine += records.length;
    return { bytesWritten: length };
  };

  return {
    write,
    // A committed transaction is durable (synchronous_commit, the server's default).
    sync: async () => undefined,
    async close() {
      if (lost === undefined) await client.query("SELECT pg_advisory_unlock($1::bigint)", [options.lockKey]).catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}
