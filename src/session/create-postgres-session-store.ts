import type { PostgresSessionStore, PostgresSessionStoreOptions } from "./postgres/postgres-session-store.js";

export type { PostgresSessionStore, PostgresSessionStoreOptions };

/**
 * The session store in PostgreSQL, for many users or workers: the same contract and the same bytes
 * as `createSessionStore` (JSONL files), one writer per session (a second is refused with
 * `session_locked`), its tables created or migrated on first use. Needs the optional `pg` package,
 * loaded here on first use so nothing else pays for it. `await store.close()` when done.
 */
export async function createPostgresSessionStore(options: PostgresSessionStoreOptions): Promise<PostgresSessionStore> {
  const { openPostgresSessionStore } = await import("./postgres/postgres-session-store.js");
  return openPostgresSessionStore(options);
}
