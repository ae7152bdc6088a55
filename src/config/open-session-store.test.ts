import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionStore } from "../session/index.js";
import { SessionError } from "../types/index.js";
import { sessionFileFor } from "./open-session-store.js";

/** A database store as sessionFileFor sees it: records by id, and no `directory`. */
function databaseStore(records: Record<string, string>): SessionStore {
  return {
    readRecords: async (id: string) => {
      if (records[id] === undefined) throw new SessionError("session_not_found", `No session ${id}.`);
      return records[id];
    },
  } as unknown as SessionStore;
}

describe("sessionFileFor with a database store", () => {
  const savedTemporaryFolder = process.env.TMPDIR;
  let temporaryFolder: string | undefined;
  afterEach(async () => {
    if (savedTemporaryFolder === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTemporaryFolder;
    if (temporaryFolder !== undefined) await rm(temporaryFolder, { recursive: true, force: true });
  });
  const useOwnTemporaryFolder = async () => {
    temporaryFolder = await mkdtemp(join(tmpdir(), "ctxkit-session-file-for-"));
    // os.tmpdir() reads TMPDIR at each call: the copies go where this test can count them.
    process.env.TMPDIR = temporaryFolder;
    return temporaryFolder;
  };

  it("writes the session's records, byte for byte, to a private copy", async () => {
    await useOwnTemporaryFolder();
    const file = await sessionFileFor(databaseStore({ s1: '{"type":"session"}\n' }), "s1");
    expect(await readFile(file, "utf8")).toBe('{"type":"session"}\n');
  });

  // view and inspect look a name up as a session once it is no file: one that is not there left an empty folder each time.
  it("leaves no folder behind for a session that is not there", async () => {
    const folder = await useOwnTemporaryFolder();
    await expect(sessionFileFor(databaseStore({}), "missing")).rejects.toMatchObject({ code: "session_not_found" });
    expect(await readdir(folder)).toEqual([]);
  });
});
