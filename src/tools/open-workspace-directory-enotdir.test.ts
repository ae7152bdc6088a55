import { constants } from "node:fs";
import * as fs from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { TempWorkspace } from "./builtin/test-support/temp-workspace.js";

/**
 * The racer's move, made at one exact moment: just before the given fs call on the given path, once.
 * The random racer (open-workspace-directory.test.ts) meets this moment only sometimes.
 */
const race = vi.hoisted(() => ({ call: "", target: "", move: undefined as (() => Promise<void>) | undefined }));

vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  const before = async (call: string, target: unknown) => {
    const move = race.move;
    if (call !== race.call || String(target) !== race.target || move === undefined) return;
    race.move = undefined;
    await move();
  };
  return {
    ...real,
    realpath: (async (target: string, ...rest: []) => {
      await before("realpath", target);
      return real.realpath(target, ...rest);
    }) as typeof real.realpath,
    open: (async (target: string, ...rest: [number]) => {
      if ((rest[0] & constants.O_DIRECTORY) !== 0) await before("open", target);
      return real.open(target, ...rest);
    }) as typeof real.open,
  };
});

let createGlobTool: typeof import("./builtin/glob.js").createGlobTool;
let createListDirTool: typeof import("./builtin/list-dir.js").createListDirTool;
let createTempWorkspace: typeof import("./builtin/test-support/temp-workspace.js").createTempWorkspace;
let expectToolError: typeof import("./builtin/test-support/temp-workspace.js").expectToolError;
let runTool: typeof import("./builtin/test-support/temp-workspace.js").runTool;
beforeAll(async () => {
  // Test files share their workers' loaded modules (isolate: false in vitest.config.ts): a file run
  // before this one may have loaded the path check or the listing with the real node:fs/promises,
  // and then the racer never moved. Loaded afresh here, they see the mock (and one ToolError class).
  vi.resetModules();
  ({ createGlobTool } = await import("./builtin/glob.js"));
  ({ createListDirTool } = await import("./builtin/list-dir.js"));
  ({ createTempWorkspace, expectToolError, runTool } = await import("./builtin/test-support/temp-workspace.js"));
});
// The files after this one load the real module again.
afterAll(() => {
  vi.resetModules();
});

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await createTempWorkspace();
  await temp.write("dir/sub/file.txt", "inside\n");
});
afterEach(async () => {
  race.move = undefined;
  await temp.remove();
});

/** Replaces the workspace's `dir` with a symbolic link to the same folder, moved aside (still inside). */
const dirBecomesLink = async () => {
  await fs.rename(path.join(temp.workspace, "dir"), path.join(temp.workspace, "dir.real"));
  await fs.symlink("dir.real", path.join(temp.workspace, "dir"));
};
/** Replaces the workspace's `dir` with a file. */
const dirBecomesFile = async () => {
  await fs.rename(path.join(temp.workspace, "dir"), path.join(temp.workspace, "dir.real"));
  await fs.writeFile(path.join(temp.workspace, "dir"), "now a file\n");
};

// Issue 30 follow-up: a folder swapped between the path check and the open made list_dir say
// "'dir' is a file, not a directory; use read_file" (O_DIRECTORY | O_NOFOLLOW on the link is ENOTDIR),
// and a folder above it made a file, "Cannot list 'dir/sub' (ENOTDIR)." with nothing to do about it.
describe.runIf(process.platform === "linux")("a folder replaced while a listing opens it (ENOTDIR)", () => {
  it("says the folder changed and to list again when it became a link just before the open", async () => {
    race.call = "open";
    race.target = path.join(temp.workspace, "dir");
    race.move = dirBecomesLink;
    const message = await expectToolError(runTool(createListDirTool({ workspace: temp.workspace }), { path: "dir" }), "failed");
    expect(message).toBe("'dir' stopped being a folder while list_dir opened it (another process replaced it, or a folder above it, with a file or a symbolic link); call it again.");
    // Called again, the listing goes through the link, which stays inside the workspace.
    expect((await runTool(createListDirTool({ workspace: temp.workspace }), { path: "dir" })).content).toContain("sub/");
  });

  it("neither follows nor lists a link to outside the workspace put there just before the open", async () => {
    await fs.writeFile(path.join(temp.outside, "secret.txt"), "outside\n");
    race.call = "open";
    race.target = path.join(temp.workspace, "dir");
    race.move = async () => {
      await fs.rename(path.join(temp.workspace, "dir"), path.join(temp.workspace, "dir.real"));
      await fs.symlink(temp.outside, path.join(temp.workspace, "dir"));
    };
    const message = await expectToolError(runTool(createListDirTool({ workspace: temp.workspace }), { path: "dir" }), "failed");
    expect(message).toContain("'dir' stopped being a folder while list_dir opened it");
    expect(message).not.toContain("secret");
    // Called again, the path check sees the link and refuses it.
    const again = await expectToolError(runTool(createListDirTool({ workspace: temp.workspace }), { path: "dir" }), "permission");
    expect(again).toContain("outside the workspace");
  });

  it("says the same when a folder above became a file just before the open", async () => {
    race.call = "open";
    race.target = path.join(temp.workspace, "dir", "sub");
    race.move = dirBecomesFile;
    const message = await expectToolError(runTool(createGlobTool({ workspace: temp.workspace }), { pattern: "*", path: "dir/sub" }), "failed");
    expect(message).toContain("'dir/sub' stopped being a folder while glob opened it");
  });

  it("says the same when a folder above became a file between the path check and its real path", async () => {
    race.call = "realpath";
    race.target = path.join(temp.workspace, "dir", "sub");
    let checks = 0;
    // The path check resolves it first; the move comes before the listing's own realpath, the second.
    race.move = async () => {
      checks += 1;
      if (checks < 2) {
        race.move = async () => {
          checks += 1;
          await dirBecomesFile();
        };
      }
    };
    const message = await expectToolError(runTool(createListDirTool({ workspace: temp.workspace }), { path: "dir/sub" }), "failed");
    expect(checks).toBe(2);
    expect(message).toContain("'dir/sub' stopped being a folder while list_dir opened it");
  });

  it("still points a plain file to read_file", async () => {
    await temp.write("notes.txt", "text\n");
    const message = await expectToolError(runTool(createListDirTool({ workspace: temp.workspace }), { path: "notes.txt" }), "invalid_arguments");
    expect(message).toBe("'notes.txt' is a file, not a directory; use read_file to read it.");
  });
});
