import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeDirectoryTree, makeDirectoryTreeSync } from "./make-directory-tree.js";

function scratch(): string {
  return mkdtempSync(join(tmpdir(), "ctxkit-tree-"));
}

describe("makeDirectoryTree (mkdir -p that always ends)", () => {
  for (const [name, make] of [
    ["async", makeDirectoryTree],
    ["sync", async (directory: string, mode?: number) => makeDirectoryTreeSync(directory, mode)],
  ] as const) {
    it(`${name}: makes every missing folder with the mode and answers the first it made, as Node's recursive mkdir`, async () => {
      const root = scratch();
      expect(await make(join(root, "a", "b", "c"), 0o700)).toBe(join(root, "a"));
      expect(statSync(join(root, "a", "b", "c")).isDirectory()).toBe(true);
      expect(statSync(join(root, "a", "b")).mode & 0o777).toBe(0o700 & ~process.umask());
      expect(await make(join(root, "a", "b"))).toBeUndefined();
    });

    it(`${name}: a file in the way is Node's EEXIST from mkdir, a file above is ENOTDIR`, async () => {
      const root = scratch();
      const file = join(root, "file");
      writeFileSync(file, "");
      await expect(make(file)).rejects.toMatchObject({ code: "EEXIST", syscall: "mkdir", path: file });
      await expect(make(join(file, "x", "y"))).rejects.toMatchObject({ code: "ENOTDIR", syscall: "mkdir" });
    });

    // procfs answers ENOENT to mkdir; Node's recursive mkdir then makes the parent and retries forever.
    it.skipIf(process.platform !== "linux")(`${name}: a folder under /proc is refused with ENOENT at once`, async () => {
      await expect(make("/proc/ctxkit-nope")).rejects.toMatchObject({ code: "ENOENT", syscall: "mkdir", path: "/proc/ctxkit-nope" });
      await expect(make("/proc/ctxkit-nope/a/b")).rejects.toMatchObject({ code: "ENOENT", path: "/proc/ctxkit-nope" });
    });
  }
});
