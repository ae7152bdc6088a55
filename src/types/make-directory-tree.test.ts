import { existsSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
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
      // A link to nowhere is in the way as a file is: never followed to make its target.
      symlinkSync(join(root, "nowhere"), join(root, "dangling"));
      await expect(make(join(root, "dangling", "x"))).rejects.toMatchObject({ code: "EEXIST", syscall: "mkdir", path: join(root, "dangling") });
      expect(existsSync(join(root, "nowhere"))).toBe(false);
    });

    it(`${name}: a relative path, a trailing separator and a symlinked parent are made like Node's`, async () => {
      const root = scratch();
      mkdirSync(join(root, "real"));
      symlinkSync(join(root, "real"), join(root, "link"));
      await make(join(root, "link", "a", "b") + sep);
      expect(statSync(join(root, "real", "a", "b")).isDirectory()).toBe(true);
      const relativePath = relative(process.cwd(), join(root, "rel", "c"));
      await make(relativePath);
      expect(statSync(join(root, "rel", "c")).isDirectory()).toBe(true);
    });

    // procfs answers ENOENT to mkdir; Node's recursive mkdir then makes the parent and retries forever.
    it.skipIf(process.platform !== "linux")(`${name}: a folder under /proc is refused with ENOENT at once`, async () => {
      await expect(make("/proc/ctxkit-nope")).rejects.toMatchObject({ code: "ENOENT", syscall: "mkdir", path: "/proc/ctxkit-nope" });
      await expect(make("/proc/ctxkit-nope/a/b")).rejects.toMatchObject({ code: "ENOENT", path: "/proc/ctxkit-nope" });
    });
  }
});

// Two runs starting at once make the same data directory: the one that loses a mkdir race finds the
// folder made (EEXIST) and goes on, as Node's recursive mkdir does.
describe("makeDirectoryTree racing another maker of the same tree", () => {
  it("async: many calls at once in one process all succeed", async () => {
    const deep = join(scratch(), "x", "y", "z");
    // Each call's stat finds the folders missing, then all but one of each mkdir find them made.
    await Promise.all(Array.from({ length: 16 }, () => makeDirectoryTree(deep, 0o700)));
    expect(statSync(deep).isDirectory()).toBe(true);
  });
});
