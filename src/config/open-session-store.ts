import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PRIVATE_FILE_MODE } from "../types/private-file-modes.js";
import type { SessionStore } from "../session/index.js";
import { createSessionStore } from "../session/session-store.js";
import type { AgentConfig } from "./agent-config.js";

const opened = new WeakMap<AgentConfig, Promise<SessionStore>>();

/**
 * The session store a command uses: PostgreSQL with `--database-url` / `CTXKIT_DATABASE_URL`
 * (loaded only then: the pg package is an optional peer), else the JSONL files of the data
 * directory. One store per resolved config, so a command opens one connection pool.
 */
export function openSessionStoreFor(config: AgentConfig): Promise<SessionStore> {
  let store = opened.get(config);
  if (store === undefined) {
    store = config.databaseUrl === undefined
      ? Promise.resolve(createSessionStore({ directory: join(config.dataDir, "sessions"), blobDirectory: join(config.dataDir, "blobs") }))
      : import("../session/create-postgres-session-store.js").then(({ createPostgresSessionStore }) => createPostgresSessionStore({ connectionString: config.databaseUrl! }));
    opened.set(config, store);
    // A failed connection is not cached: the next command may find the server up.
    store.catch(() => opened.delete(config));
  }
  return store;
}

/**
 * A session as a JSONL file the importers (`inspect`, `view`) can read: its own file for the JSONL
 * store, a private temporary copy of its records (byte for byte the same file) for the database.
 */
export async function sessionFileFor(store: SessionStore, id: string): Promise<string> {
  if ("directory" in store) return store.path(id);
  // Read first: a session that is not there (session_not_found, which view and inspect report) leaves no empty folder behind.
  const records = await store.readRecords(id);
  const folder = await mkdtemp(join(tmpdir(), "ctxkit-session-export-"));
  const file = join(folder, `${id}.jsonl`);
  await writeFile(file, records, { mode: PRIVATE_FILE_MODE });
  return file;
}
