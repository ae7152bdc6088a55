import { execFileSync } from "node:child_process";
import { link, readdir, readFile, truncate } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { startDirectorySwapper } from "../testing/directory-swapper.js";
import { createEditFileTool } from "./builtin/edit-file.js";
import { createGrepTool } from "./builtin/grep.js";
import { createReadFileTool } from "./builtin/read-file.js";
import { expectToolError, runTool, useTempWorkspace } from "./builtin/test-support/temp-workspace.js";
import { createWriteFileTool } from "./builtin/write-file.js";
import { ToolError } from "./tool.js";

const temp = useTempWorkspace();

const isLinux = process.platform === "linux";

// The trial that found it: read_file and grep on a FIFO blocked forever, and after Ctrl-C the process
// never exited (a pending open of the FIFO kept it alive).
describe.runIf(isLinux)("special files", () => {
  beforeEach(() => {
    execFileSync("mkfifo", [path.join(temp.workspace, "pipe")]);
  });

  it("refuses a FIFO in read_file, grep, edit_file and write_file with a clear error instead of blocking", async () => {
    const workspace = temp.workspace;
    const calls = [
      () => runTool(createReadFileTool({ workspace }), { path: "pipe" }),
      () => runTool(createGrepTool({ workspace }), { pattern: "x", path: "pipe" }),
      () => runTool(createEditFileTool({ workspace }), { path: "pipe", old_string: "a", new_string: "b" }),
      () => runTool(createWriteFileTool({ workspace }), { path: "pipe", content: "x" }),
    ];
    for (const call of calls) expect(await expectToolError(call(), "invalid_arguments")).toContain("is a FIFO (named pipe)");
  }, 10_000);

  it("skips a FIFO met while grep walks a directory", async () => {
    await temp.write("a.txt", "needle\n");
    const result = await runTool(createGrepTool({ workspace: temp.workspace }), { pattern: "needle" });
    expect(result.content).toBe("a.txt:1: needle");
  }, 10_000);

  it("refuses a character device reached through an absolute path inside the workspace's link", async () => {
    const read = createReadFileTool({ workspace: "/dev" });
    expect(await expectToolError(runTool(read, { path: "zero" }), "invalid_arguments")).toContain("character device");
  });
});

// Found by the escape battery: a path through a file ("a.txt/new.txt") threw a raw EEXIST from mkdir.
describe("a write path that goes through a file", () => {
  it("is refused with a ToolError that says so", async () => {
    await temp.write("a.txt", "x\n");
    const message = await expectToolError(runTool(createWriteFileTool({ workspace: temp.workspace }), { path: "a.txt/new.txt", content: "y" }), "invalid_arguments");
    expect(message).toContain("goes through a file as if it were a folder");
  });
});

describe("hard links", () => {
  // A pre-existing hard link to a file outside let writes change the outside file.
  it("refuses to write or edit a file with another hard link unless allowed", async () => {
    const outsideFile = path.join(temp.outside, "secret.txt");
    await temp.write("../outside/secret.txt", "original\n");
    await link(outsideFile, path.join(temp.workspace, "linked.txt"));
    const workspace = temp.workspace;
    expect(await expectToolError(runTool(createWriteFileTool({ workspace }), { path: "linked.txt", content: "x" }), "permission")).toContain(
      "2 hard links",
    );
    await expectToolError(runTool(createEditFileTool({ workspace }), { path: "linked.txt", old_string: "original", new_string: "x" }), "permission");
    expect(await readFile(outsideFile, "utf8")).toBe("original\n");
    await runTool(createEditFileTool({ workspace, allowHardLinks: true }), { path: "linked.txt", old_string: "original", new_string: "changed" });
    expect(await readFile(outsideFile, "utf8")).toBe("changed\n");
  });
});

describe("resource bounds", () => {
  // read_file on a file with one huge line died with "RangeError: Invalid string length" (readline
  // built the whole line as one string). Now only the shown part of a line is ever held.
  it("reads a 20 MB single-line file by streaming, showing the cut line and its length", async () => {
    await temp.write("one-line.txt", "x".repeat(20 * 1024 * 1024));
    const result = await runTool(createReadFileTool({ workspace: temp.workspace, maxLineCharacters: 100 }), { path: "one-line.txt" });
    expect(result.content).toBe(`     1\t${"x".repeat(100)}… [line cut: ${20 * 1024 * 1024} characters]`);
  }, 30_000);

  it("keeps multi-byte characters whole where a long line is cut", async () => {
    await temp.write("wide.txt", `${"é".repeat(5000)}\nnext\n`);
    const result = await runTool(createReadFileTool({ workspace: temp.workspace, maxLineCharacters: 3 }), { path: "wide.txt" });
    expect(result.content).toBe("     1\téé锟… [line cut: 5000 characters]\n     2\tnex… [line cut: 4 characters]".replace("锟", "é"));
  });

  // edit_file read a whole 1 GB file (1.1 GB RSS, then the same RangeError). The file here is sparse,
  // so the test costs no disk, and the refusal comes from the size alone.
  it("refuses to edit a 1 GB file, saying how to work on a part of it", async () => {
    const big = await temp.write("big.log", "");
    await truncate(big, 1024 * 1024 * 1024);
    const message = await expectToolError(
      runTool(createEditFileTool({ workspace: temp.workspace }), { path: "big.log", old_string: "a", new_string: "b" }),
      "invalid_arguments",
    );
    expect(message).toContain("is 1.0 GB; edit_file changes files up to 16 MB");
    expect(message).toContain("read_file (offset and limit)");
  });
});

// The trial that found it: another process swapping a workspace directory for a symbolic link to
// outside let 46 of 1,800 reads return outside content and 20 writes create files outside. Here a
// child process swaps `dir` in a tight loop while 600 reads and writes run.
describe.runIf(isLinux)("check-then-use race", () => {
  it("lets no call escape while another process swaps a directory for a link to outside", async () => {
    await temp.write("dir/file.txt", "inside\n");
    await temp.write("../outside/file.txt", "SECRET\n");
    const directory = path.join(temp.workspace, "dir");
    const swapper = await startDirectorySwapper(directory, temp.outside);
    const read = createReadFileTool({ workspace: temp.workspace });
    const write = createWriteFileTool({ workspace: temp.workspace });
    let escapes = 0;
    let calls = 0;
    let refused = 0;
    let untyped = 0;
    try {
      for (let trial = 0; trial < 60; trial += 1) {
        const reads = Array.from({ length: 8 }, () => runTool(read, { path: "dir/file.txt" }));
        const writes = [
          runTool(write, { path: `dir/new-${trial}.txt`, content: "written\n" }),
          runTool(write, { path: "dir/file.txt", content: "inside\n" }),
        ];
        const results = await Promise.allSettled([...reads, ...writes]);
        const readResults = results.slice(0, reads.length);
        calls += results.length;
        refused += results.filter((result) => result.status === "rejected").length;
        // A refusal is a ToolError the model reads; a raw ENOENT from a folder swapped mid-call was not.
        untyped += results.filter((result) => result.status === "rejected" && !(result.reason instanceof ToolError)).length;
        escapes += readResults.filter((result) => result.status === "fulfilled" && result.value.content.includes("SECRET")).length;
      }
    } finally {
      swapper.stop();
    }
    const outsideEntries = await readdir(temp.outside);
    escapes += outsideEntries.filter((name) => name !== "file.txt").length;
    if ((await readFile(path.join(temp.outside, "file.txt"), "utf8")) !== "SECRET\n") escapes += 1;
    // The race is real: some calls meet the link and are refused (a permission error the model sees).
    expect({ calls, escapes, untyped, someRefused: refused > 0 }).toEqual({ calls: 600, escapes: 0, untyped: 0, someRefused: true });
  }, 60_000);
});
