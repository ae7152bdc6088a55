import { mkdir, readdir, readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectToolError, runTool, useTempWorkspace } from "./test-support/temp-workspace.js";
import { createWriteFileTool } from "./write-file.js";

describe("write_file", () => {
  const temp = useTempWorkspace();

  it("asks for confirmation and runs alone", () => {
    const tool = createWriteFileTool({ workspace: temp.workspace });
    expect(tool.requiresConfirmation).toBe(true);
    expect(tool.parallelSafe).toBe(false);
  });

  it("creates parent directories and reports the bytes written", async () => {
    const tool = createWriteFileTool({ workspace: temp.workspace });
    const result = await runTool(tool, { path: "deep/er/note.md", content: "héllo\n" });
    expect(result.content).toBe("Created deep/er/note.md (7 bytes written).");
    expect(await readFile(path.join(temp.workspace, "deep/er/note.md"), "utf8")).toBe("héllo\n");
  });

  it("says when it overwrote an existing file", async () => {
    await temp.write("a.txt", "0123456789");
    const result = await runTool(createWriteFileTool({ workspace: temp.workspace }), { path: "a.txt", content: "new" });
    expect(result.content).toBe("Overwrote a.txt (3 bytes written; it had 10 bytes before).");
  });

  it("refuses to replace a directory", async () => {
    await mkdir(path.join(temp.workspace, "src"));
    await expectToolError(
      runTool(createWriteFileTool({ workspace: temp.workspace }), { path: "src", content: "x" }),
      "invalid_arguments",
    );
  });

  it("refuses to write outside the workspace", async () => {
    const tool = createWriteFileTool({ workspace: temp.workspace });
    await expectToolError(runTool(tool, { path: "../outside/escaped.txt", content: "x" }), "permission");
    await expectToolError(runTool(tool, { path: path.join(temp.outside, "escaped.txt"), content: "x" }), "permission");
    expect(await readdir(temp.outside)).toEqual([]);
  });

  it("refuses to write through a symlinked parent directory that points outside", async () => {
    await symlink(temp.outside, path.join(temp.workspace, "linked"));
    const tool = createWriteFileTool({ workspace: temp.workspace });
    await expectToolError(runTool(tool, { path: "linked/escaped.txt", content: "x" }), "permission");
    await expectToolError(runTool(tool, { path: "linked/new-dir/escaped.txt", content: "x" }), "permission");
    expect(await readdir(temp.outside)).toEqual([]);
  });

  it("writes through a symlinked directory that points inside the workspace", async () => {
    await mkdir(path.join(temp.workspace, "real"));
    await symlink(path.join(temp.workspace, "real"), path.join(temp.workspace, "alias"));
    await runTool(createWriteFileTool({ workspace: temp.workspace }), { path: "alias/a.txt", content: "ok" });
    expect(await readFile(path.join(temp.workspace, "real/a.txt"), "utf8")).toBe("ok");
  });
});
