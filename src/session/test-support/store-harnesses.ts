import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { createPostgresSessionStore, type PostgresSessionStore } from "../create-postgres-session-store.js";
import { createSessionStore } from "../session-store.js";
import type { SessionStore } from "../session-store.js";
import { freshSchemaName, testDatabase } from "../postgres/test-support/test-database.js";
import { createTempDirectory } from "./session-test-data.js";

/** One store under the contract suite, with raw access to what it holds (to damage it on purpose). */
export interface StoreUnderTest {
  store: SessionStore;
  /** The session's record lines as stored, without newlines. */
  rawLines(id: string): Promise<string[]>;
  /** Replaces (or creates) a session's stored bytes, as a person or a crash could leave them. */
  writeRaw(id: string, text: string): Promise<void>;
  /** Where repair kept the original, for the first repair of `id` (`n` counts from 0). */
  backupText(id: string, n: number): Promise<string>;
  dispose(): Promise<void>;
}

export interface StoreHarness {
  name: string;
  /** Why this store's suite cannot run here (then it is skipped with this reason). */
  skip?: string;
  /** Behaviours only one store has, each with the reason the other lacks it. */
  lacks: Partial<Record<"tornTail" | "fileLayout", string>>;
  open(): Promise<StoreUnderTest>;
}

const jsonlHarness: StoreHarness = {
  name: "jsonl",
  lacks: {},
  async open() {
    const temp = await createTempDirectory();
    const store = createSessionStore({ directory: join(temp.directory, "sessions") });
    return {
      store,
      rawLines: async (id) => (await readFile(store.path(id), "utf8")).split("\n").slice(0, -1),
      writeRaw: async (id, text) => {
        await readFile(store.path(id)).catch(async () => (await import("node:fs/promises")).mkdir(store.directory, { recursive: true }));
        await writeFile(store.path(id), text);
      },
      backupText: (id, n) => readFile(`${store.path(id)}.before-repair${n === 0 ? "" : `-${n}`}`, "utf8"),
      dispose: temp.remove,
    };
  },
};

const database = await testDatabase();

const postgresHarness: StoreHarness = {
  name: "postgres",
  ...(database.skip !== undefined ? { skip: database.skip } : {}),
  lacks: {
    tornTail: "a database stores each write in a transaction: no line is ever half written",
    fileLayout: "there are no files: the records are rows",
  },
  async open() {
    const schema = freshSchemaName("store");
    const store: PostgresSessionStore = await createPostgresSessionStore({ connectionString: database.url!, schema, maxConnections: 4 });
    const client = new pg.Client({ connectionString: database.url! });
    await client.connect();
    const table = (name: string) => `"${schema}".${name}`;
    return {
      store,
      rawLines: async (id) => (await client.query<{ record: string }>(`SELECT record FROM ${table("ctxkit_session_records")} WHERE session_id = $1 ORDER BY line`, [id])).rows.map((row) => row.record),
      writeRaw: async (id, text) => {
        const lines = text.split("\n");
        if (lines.at(-1) === "") lines.pop();
        await client.query(`INSERT INTO ${table("ctxkit_sessions")} (id, created_at) VALUES ($1, '2026-11-30T04:15:02.118Z') ON CONFLICT (id) DO NOTHING`, [id]);
        await client.query(`DELETE FROM ${table("ctxkit_session_records")} WHERE session_id = $1`, [id]);
        await client.query(`INSERT INTO ${table("ctxkit_session_records")} (session_id, line, record) SELECT $1, * FROM unnest($2::integer[], $3::text[])`, [id, lines.map((_, index) => index + 1), lines]);
      },
      backupText: async (id, n) => {
        const rows = await client.query<{ record: string }>(`SELECT record FROM ${table("ctxkit_session_repairs")} WHERE session_id = $1 AND repair = $2 ORDER BY line`, [id, n + 1]);
        return `${rows.rows.map((row) => row.record).join("\n")}\n`;
      },
      async dispose() {
        await store.close();
        await client.query(`DROP SCHEMA "${schema}" CASCADE`);
        await client.end();
      },
    };
  },
};

/** Every session store the contract suite runs against. */
export const storeHarnesses: readonly StoreHarness[] = [jsonlHarness, postgresHarness];
