import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSessionStore, type JsonlSessionStore } from "./session-store.js";
import { samplePrefix, userMessage } from "./test-support/session-test-data.js";
import { currentLockOwner } from "./session-lock-owner.js";
import { releaseHeldLocksAtExit, unlockSessionFile } from "./session-file-lock.js";
import { toCliMessage } from "../cli/cli-error-message.js";
import type { SessionError } from "../types/index.js";

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

describe("a JSONL session lock that outlived its writer", () => {
  it("is taken over when its pid now belongs to another live process (pid reuse after a SIGKILL)", async () => {
    const writer = await store.create({ createdAt, prefix: samplePrefix });
    await writer.close();
    // The parent runs, but it is not the process that wrote this lock: it started at another time.
    await writeFile(`${writer.path}.lock`, JSON.stringify({ ...currentLockOwner(), pid: process.ppid, token: "an-earlier-run", start: "1" }));
    const reopened = await store.open(writer.id);
    await reopened.close();
    expect(existsSync(`${writer.path}.lock`)).toBe(false);
  });

  it("is removed when the process exits without closing its writer (the CLI's SIGTERM handler calls process.exit)", async () => {
    const writer = await store.create({ createdAt, prefix: samplePrefix });
    expect(process.listeners("exit")).toContain(releaseHeldLocksAtExit);
    releaseHeldLocksAtExit();
    expect(existsSync(`${writer.path}.lock`)).toBe(false);
    await writer.close();
  });

  it("is refused, naming the file to delete, when ctxkit cannot tell who wrote it; the CLI says it in its words", async () => {
    const writer = await store.create({ createdAt, prefix: samplePrefix });
    await writer.close();
    await writeFile(`${writer.path}.lock`, "");
    const error = (await store.open(writer.id).then(
      () => undefined,
      (caught: unknown) => caught,
    )) as SessionError;
    expect(error).toMatchObject({ code: "session_locked", message: expect.stringContaining(`not one ctxkit wrote); it was not changed. Close that writer first (session.close()).`) });
    expect(error.message).toContain(`delete ${writer.path}.lock and open the session again; unlockSessionFile(${JSON.stringify(writer.path)}, ${JSON.stringify(writer.id)}) from ctxkit deletes it`);
    expect(toCliMessage(error)).toContain(`Let the other ctxkit run or chat on this session finish first. If none is running any more (the lock outlived a crash, or its host is gone), run 'ctxkit sessions unlock ${writer.id}' (it deletes ${writer.path}.lock;`);
    expect(toCliMessage(error)).toMatch(/ and run the command again\.$/);
    expect(toCliMessage(error)).not.toContain("session.close()");
    expect(toCliMessage(error)).not.toContain("unlockSessionFile");
  });
});

// A lock from another host was taken for stale (its pid cannot be checked here) and broken, so two
// containers sharing a volume could write one session at once.
describe("a JSONL session lock written on another host", () => {
  it("is held: open, remove and repair are refused, naming the host, and the lock stays", async () => {
    const writer = await store.create({ createdAt, prefix: samplePrefix });
    await writer.close();
    const lock = JSON.stringify({ ...currentLockOwner(), host: "other-container", pid: 4242, token: "theirs" });
    await writeFile(`${writer.path}.lock`, lock);
    await expect(store.open(writer.id)).rejects.toMatchObject({ code: "session_locked", message: expect.stringContaining("process 4242 on other-container, another host, whose processes this one cannot check; it was not changed.") });
    await expect(store.remove(writer.id)).rejects.toMatchObject({ code: "session_locked" });
    expect(existsSync(`${writer.path}.lock`)).toBe(true);
    expect(existsSync(writer.path)).toBe(true);
  });

  it("is removed by unlockSessionFile, after which the session opens; a lock whose writer runs here is kept", async () => {
    const writer = await store.create({ createdAt, prefix: samplePrefix });
    await writer.close();
    await writeFile(`${writer.path}.lock`, JSON.stringify({ pid: 4242, host: "other-container" }));
    expect(await unlockSessionFile(writer.path, writer.id)).toEqual({ removed: true, owner: { pid: 4242, host: "other-container" } });
    const reopened = await store.open(writer.id);
    await expect(unlockSessionFile(writer.path, writer.id)).rejects.toMatchObject({ code: "session_locked", message: expect.stringContaining("another writer in this process, which still runs; its lock was kept") });
    await reopened.close();
    expect(await unlockSessionFile(writer.path, writer.id)).toEqual({ removed: false });
  });
});

describe("what the lock covers", () => {
  it("refuses to remove or repair a session a writer holds open, and allows both once it is closed", async () => {
    const writer = await store.create({ createdAt, prefix: samplePrefix });
    writer.appendMessage(userMessage("m1", "one"));
    await writer.flush();
    await expect(store.remove(writer.id)).rejects.toMatchObject({ code: "session_locked" });
    await expect(store.repair(writer.id, [])).rejects.toMatchObject({ code: "session_locked" });
    expect((await store.load(writer.id)).messages).toHaveLength(1);
    await writer.close();
    await store.repair(writer.id, []);
    await store.remove(writer.id);
    expect(readdirSync(directory).filter((name) => name === `${writer.id}.jsonl` || name.endsWith(".lock"))).toEqual([]);
  });

  it("is never taken by reading: load, list and readRecords work while a writer holds it", async () => {
    const writer = await store.create({ createdAt, prefix: samplePrefix });
    await store.load(writer.id);
    await store.list();
    await store.readRecords(writer.id);
    await writer.close();
    expect(existsSync(`${writer.path}.lock`)).toBe(false);
  });

  it("is released when an open fails after taking it", async () => {
    const writer = await store.create({ createdAt, prefix: samplePrefix });
    await writer.close();
    // A torn last line is cut and kept in <file>.torn; a folder in its place makes the open fail after the lock was taken.
    appendFileSync(writer.path, '{"type":"mess');
    mkdirSync(`${writer.path}.torn`);
    await expect(store.open(writer.id)).rejects.toMatchObject({ code: "EISDIR" });
    expect(existsSync(`${writer.path}.lock`)).toBe(false);
  });
});

describe("a lock file's contents are not trusted", () => {
  it("reads only the head of a huge lock file, and refuses it as one ctxkit did not write", async () => {
    const writer = await store.create({ createdAt, prefix: samplePrefix });
    await writer.close();
    await writeFile(`${writer.path}.lock`, `{"pid":${process.ppid},"host":"${"x".repeat(8 * 1024 * 1024)}"}`);
    await expect(store.open(writer.id)).rejects.toMatchObject({ code: "session_locked", message: expect.stringContaining("not one ctxkit wrote") });
  });
});
