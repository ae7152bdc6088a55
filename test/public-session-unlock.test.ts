import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assembleAgent, createSessionStore, SessionError, unlockSessionFile, type LockOwner } from "../src/index.js";
import { createScriptedProvider } from "../src/testing.js";

// docs/architecture.md and the README name `unlockSessionFile` as the way a person breaks a lock left
// on another host, but only the CLI could call it: a program resuming its sessions had no way but
// deleting `<file>.lock` by hand. It is on the `ctxkit` entry now, with its typed refusal.
let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxkit-public-unlock-"));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

async function startedSession(): Promise<{ id: string; file: string; store: ReturnType<typeof createSessionStore> }> {
  const store = createSessionStore({ directory });
  const { session } = await assembleAgent({ provider: createScriptedProvider({ turns: ["hi"] }), system: "s", session: { store, mode: "new" } });
  await session!.close();
  return { id: session!.id, file: store.path(session!.id), store };
}

describe("unlockSessionFile from the ctxkit entry", () => {
  it("removes another host's lock, after which the session resumes, and names the owner it held", async () => {
    const { id, file, store } = await startedSession();
    await writeFile(`${file}.lock`, JSON.stringify({ pid: 4242, host: "other-container" }));
    const refused = await assembleAgent({ provider: createScriptedProvider({ turns: ["x"] }), system: "s", session: { store, mode: "resume", id } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionError);
    expect(refused).toMatchObject({ code: "session_locked", message: expect.stringContaining(`unlockSessionFile(${JSON.stringify(file)}, ${JSON.stringify(id)})`) });
    const unlocked: { removed: boolean; owner?: LockOwner } = await unlockSessionFile(file, id);
    expect(unlocked).toEqual({ removed: true, owner: { pid: 4242, host: "other-container" } });
    expect(existsSync(`${file}.lock`)).toBe(false);
    const { session } = await assembleAgent({ provider: createScriptedProvider({ turns: ["x"] }), system: "s", session: { store, mode: "resume", id } });
    await session!.close();
  });

  it("keeps the lock of a writer that runs here, refusing with a typed session_locked and no CLI advice", async () => {
    const { id, file, store } = await startedSession();
    const writer = await store.open(id);
    try {
      const error = await unlockSessionFile(file, id).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SessionError);
      expect(error).toMatchObject({ code: "session_locked" });
      expect((error as SessionError).message).not.toMatch(/ctxkit sessions|--/);
      expect(existsSync(`${file}.lock`)).toBe(true);
    } finally {
      await writer.close();
    }
    expect(await unlockSessionFile(file, id)).toEqual({ removed: false });
  });

  it("names the session by its file when no id is given", async () => {
    const { id, file, store } = await startedSession();
    const writer = await store.open(id);
    try {
      await expect(unlockSessionFile(file)).rejects.toMatchObject({ code: "session_locked", message: expect.stringContaining(`Session ${id} (${file})`) });
    } finally {
      await writer.close();
    }
    await writeFile(`${file}.lock`, JSON.stringify({ pid: 4242, host: "other-container" }));
    expect(await unlockSessionFile(file)).toMatchObject({ removed: true });
  });
});
