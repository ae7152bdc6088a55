import type pg from "pg";
import type { SessionRepair } from "../repair-session-file.js";

export interface PostgresRepairInput {
  client: pg.ClientBase;
  table: (name: string) => string;
  id: string;
  path: string;
  /** The session's record lines as stored, read in the same transaction. */
  original: readonly string[];
  /** 1-based lines to leave out. */
  removedLines: readonly number[];
  /** The kept lines' new order (1-based); default: as they are. */
  order?: readonly number[];
}

/**
 * The database form of `repairSessionFile`, inside the caller's transaction: every original line is
 * first copied into `ctxkit_session_repairs` (numbered per session, the removed ones marked), then
 * the session's records are replaced by the kept lines in their new order. Either all of it happens or none.
 */
export async function repairPostgresSession(input: PostgresRepairInput): Promise<SessionRepair> {
  const { client, table, id, original } = input;
  const removed = new Set(input.removedLines);
  const order = input.order ?? original.map((_, index) => index + 1);
  const kept = order.filter((line) => !removed.has(line) && line >= 1 && line <= original.length).map((line) => original[line - 1]!);
  const [previous] = (await client.query<{ repair: number | null }>(`SELECT max(repair) AS repair FROM ${table("ctxkit_session_repairs")} WHERE session_id = $1`, [id])).rows;
  const repair = (previous?.repair ?? 0) + 1;
  await client.query(
    `INSERT INTO ${table("ctxkit_session_repairs")} (session_id, repair, line, record, removed) SELECT $1, $2, * FROM unnest($3::integer[], $4::text[], $5::boolean[])`,
    [id, repair, original.map((_, index) => index + 1), original, original.map((_, index) => removed.has(index + 1))],
  );
  await client.query(`DELETE FROM ${table("ctxkit_session_records")} WHERE session_id = $1`, [id]);
  await client.query(`INSERT INTO ${table("ctxkit_session_records")} (session_id, line, record) SELECT $1, * FROM unnest($2::integer[], $3::text[])`, [id, kept.map((_, index) => index + 1), kept]);
  await client.query(`UPDATE ${table("ctxkit_sessions")} SET updated_at = now(), line_count = $2 WHERE id = $1`, [id, kept.length]);
  return {
    backupPath: `${input.path}#before-repair-${repair}`,
    removedLines: [...removed].sort((left, right) => left - right),
    removedTo: `${input.path}#removed-${repair} (table ctxkit_session_repairs, repair ${repair})`,
  };
}
