import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionStoreOptions } from "./session-store.js";
import { createSessionStore } from "./session-store.js";
import { samplePrefix } from "./test-support/session-test-data.js";

// What a library user hits first with a wrong folder: a typed error naming the setting, never a bare TypeError or errno.
describe("createSessionStore's folder", () => {
  it.each([undefined, "", 42])("a directory of %j is option_invalid naming `directory`", (directory) => {
    expect(() => createSessionStore({ directory } as unknown as SessionStoreOptions)).toThrow(
      expect.objectContaining({ name: "ConfigError", code: "option_invalid", message: expect.stringContaining("createSessionStore needs `directory`") }),
    );
  });

  it("a file where the folder should be is session_write_refused naming the folder", async () => {
    const root = await mkdtemp(join(tmpdir(), "ctxkit-store-options-"));
    try {
      await writeFile(join(root, "a-file"), "x");
      const store = createSessionStore({ directory: join(root, "a-file", "sessions") });
      await expect(store.create({ createdAt: "2026-11-30T04:15:02.118Z", prefix: samplePrefix })).rejects.toMatchObject({
        name: "SessionError",
        code: "session_write_refused",
        message: expect.stringMatching(/a-file\/sessions \(ENOTDIR: .*a folder this process can write/),
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
