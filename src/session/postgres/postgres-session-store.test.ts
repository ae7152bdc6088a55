import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresSessionStore } from "../create-postgres-session-store.js";
import { createSessionStore } from "../session-store.js";
import { createTempDirectory, samplePrefix, userMessage } from "../test-support/session-test-data.js";
import { advisoryKeyOf, quoteSchema } from "./postgres-connection.js";
import { POSTGRES_SCHEMA_VERSION } from "./postgres-schema.js";
import { freshSchemaName, testDatabase } from "./test-support/test-database.js";

const database = await testDatabase();
const createdAt = "2026-11-30T04:15:02.118Z";

describe.skipIf(database.skip !== undefined)(`the Postgres session store${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: database.url! });
    await admin.connect();
  });
  afterAll(() => admin.end());

  const openStore = (schema = freshSchemaName("pg")) => createPostgresSessionStore({ connectionString: database.url!, schema, maxConnections: 3 });

  it("refuses a second writer of one session with session_locked, and lets one in once the first closes", async () => {
    const store = await openStore();
    const first = await store.create({ id: "busy", createdAt, prefix: samplePrefix });
    await expect(store.open("busy")).rejects.toMatchObject({ code: "session_locked", message: expect.stringContaining("one writer per session") });
    await expect(store.remove("busy")).rejects.toMatchObject({ code: "session_locked" });
    // Another process (another store, its own pool) is refused just the same.
    const other = await createPostgresSessionStore({ connectionString: database.url!, schema: store.location.match(/schema (\w+)/)![1]! });
    await expect(other.open("busy")).rejects.toMatchObject({ code: "session_locked" });
    await first.close();
    const second = await other.open("busy");
    second.appendMessage(userMessage("m1", "after the first writer"));
    await second.close();
    expect((await store.load("busy")).messages).toHaveLength(1);
    await Promise.all([store.close(), other.close()]);
  });

  it("stops a writer whose connection (and so its lock) was lost, storing nothing more", async () => {
    const store = await openStore();
    const writer = await store.create({ id: "cut", createdAt, prefix: samplePrefix });
    writer.appendMessage(userMessage("m1", "stored"));
    await writer.flush();
    // Only this writer's connection: other test files share the server, and their connections must live on.
    const key = BigInt.asUintN(64, BigInt(advisoryKeyOf(`ctxkit-session:${quoteSchema(store.location.match(/schema (\w+)/)![1]!)}:cut`)));
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 1 AND granted",
      [String(key >> 32n), String(key & 0xffffffffn)],
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    writer.appendMessage(userMessage("m2", "never stored"));
    await expect(writer.flush()).rejects.toMatchObject({ code: expect.stringMatching(/session_lock_lost|session_database_error/) });
    await writer.close().catch(() => undefined);
    expect((await store.load("cut")).messages.map((message) => message.meta.id)).toEqual(["m1"]);
    await store.close();
  });

  it("stores exactly the bytes the JSONL store writes for the same session", async () => {
    const temp = await createTempDirectory();
    const files = createSessionStore({ directory: temp.directory });
    const store = await openStore();
    for (const target of [files, store]) {
      const writer = await target.create({ id: "same", createdAt, workspace: "/tmp/project", prefix: samplePrefix });
      writer.appendRunStart({ runId: "run-1", input: "hi", at: createdAt });
      writer.appendMessage(userMessage("m1", "hi 温度 \u2028"));
      writer.appendRequest({ messageCount: 1, provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt, bodyHash: `sha256:${"ab".repeat(32)}` });
      await writer.close();
    }
    expect(Buffer.from(await store.readRecords("same")).toString("utf8")).toBe(await readFile(files.path("same"), "utf8"));
    await store.close();
    await temp.remove();
  });

  it("migrates a database made by schema version 1 and loads its sessions unchanged", async () => {
    const schema = freshSchemaName("v1");
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.query(`SET search_path TO "${schema}"`);
    await admin.query(await readFile(fileURLToPath(new URL("./fixtures/schema-v1.sql", import.meta.url)), "utf8"));
    await admin.query("SET search_path TO public");
    const store = await openStore(schema);
    expect(store.migratedFrom).toBe(1);
    const [version] = (await admin.query<{ version: number }>(`SELECT version FROM "${schema}".ctxkit_schema_version`)).rows;
    expect(version?.version).toBe(POSTGRES_SCHEMA_VERSION);
    const fixture = await createSessionStore({ directory: fileURLToPath(new URL("../fixtures/", import.meta.url)) }).load("v4-sealed");
    const loaded = await store.load("20261201-220000-5ea1ed");
    expect(loaded.messages).toEqual(fixture.messages);
    expect(loaded.usage).toEqual(fixture.usage);
    // The migrated session takes appends where v1 left it.
    const writer = await store.open("20261201-220000-5ea1ed");
    writer.appendMessage(userMessage("after-migration", "appended"));
    await writer.close();
    expect((await store.load("20261201-220000-5ea1ed")).log.at(-1)?.meta.id).toBe("after-migration");
    await store.close();
  });

  it("refuses a database made by a newer ctxkit without changing it", async () => {
    const schema = freshSchemaName("newer");
    (await openStore(schema)).close();
    await admin.query(`UPDATE "${schema}".ctxkit_schema_version SET version = 99`);
    await expect(openStore(schema)).rejects.toMatchObject({ code: "session_schema_unsupported", message: expect.stringContaining("Upgrade ctxkit") });
  });

  it("replays a durable run whose session was created before prefixes recorded where the policies' sections begin", async () => {
    const store = await openStore();
    await (await store.create({ id: "older", createdAt, prefix: samplePrefix })).close();
    const replayed = await store.createOrReplay({ id: "older", createdAt, prefix: { ...samplePrefix, policySectionsAt: samplePrefix.system.sessionText!.length } });
    await replayed.close();
    await expect(store.createOrReplay({ id: "older", createdAt, prefix: { ...samplePrefix, system: { staticText: "another prompt" } } })).rejects.toMatchObject({ code: "session_replay_diverged" });
    await store.close();
  });

  it("keeps a session's blobs with its records, so another process that opens it can read them", async () => {
    const schema = freshSchemaName("blobs");
    const store = await openStore(schema);
    const writer = await store.create({ id: "blobbed", createdAt, prefix: samplePrefix });
    const id = store.blobs.put("a long tool result, moved out of the context");
    writer.appendMessage(userMessage("m1", `preview; full text in ${id}`));
    await writer.close();
    await store.close();

    const later = await openStore(schema);
    expect(later.blobs.get(id)).toBeUndefined();
    const reopened = await later.open("blobbed");
    expect(later.blobs.get(id)).toBe("a long tool result, moved out of the context");
    await reopened.close();
    await later.close();
  });

  it("fails with a typed error naming the fix for a bad URL or a database that is not there", async () => {
    await expect(createPostgresSessionStore({ connectionString: "not a url" })).rejects.toMatchObject({ code: "option_invalid", message: expect.stringContaining("CTXKIT_DATABASE_URL") });
    await expect(createPostgresSessionStore({ connectionString: "postgres://ctxkit:secret@127.0.0.1:1/none", connectTimeoutMs: 2_000 })).rejects.toMatchObject({
      code: "session_database_error",
      message: expect.not.stringContaining("secret"),
    });
    await expect(createPostgresSessionStore({ connectionString: database.url!, schema: "bad; drop" })).rejects.toMatchObject({ code: "option_invalid" });
  });
});
