import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSessionStore, type JsonlSessionStore } from "./session-store.js";
import { samplePrefix, userMessage } from "./test-support/session-test-data.js";

// Two writers on one JSONL session interleaved their records; the next resume refused the file with
// session_needs_repair. Like the Postgres store, the second writer is now refused with session_locked.
let directory: string;
let store: JsonlSessionStore;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxkit-session-lock-"));
  store = createSessionStore({ directory });
});
afterEach(() => rm(directory, { recursive: true, force: true }));
const createdAt = "2026-11-30T04:15:02.118Z";

describe("one writer per JSONL session", () => {
  it("refuses a second open while the first writer is open, in the same process, and allows it after close", async () => {
    const first = await store.create({ createdAt, prefix: samplePrefix });
    await expect(store.open(first.id)).rejects.toMatchObject({ name: "SessionError", code: "session_locked", message: expect.stringContaining("another writer in this process") });
    first.appendMessage(userMessage("m1", "one"));
    await first.close();
    expect(existsSync(`${first.path}.lock`)).toBe(false);
    const second = await store.open(first.id);
    await expect(store.open(first.id)).rejects.toMatchObject({ code: "session_locked" });
    second.appendMessage(userMessage("m2", "two"));
    await second.close();
    expect((await store.load(first.id)).messages.map((message) => message.content)).toEqual(["one", "two"]);
  });

  it("takes over a lock left by a process that no longer runs (a crash)", async () => {
    const writer = await store.create({ createdAt, prefix: samplePrefix });
    await writer.close();
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    await writeFile(`${writer.path}.lock`, `${gone}\n`);
    const reopened = await store.open(writer.id);
    await reopened.close();
    expect(existsSync(`${writer.path}.lock`)).toBe(false);
  });

  it("names the process holding a live lock and the lock file to delete if it is not ctxkit's", async () => {
    const writer = await store.create({ createdAt, prefix: samplePrefix });
    await writer.close();
    await writeFile(`${writer.path}.lock`, `${process.ppid}\n`);
    await expect(store.open(writer.id)).rejects.toMatchObject({ code: "session_locked", message: expect.stringContaining(`process ${process.ppid}; it was not changed`) });
    await expect(store.open(writer.id)).rejects.toMatchObject({ message: expect.stringContaining(`delete ${writer.path}.lock`) });
  });
});
