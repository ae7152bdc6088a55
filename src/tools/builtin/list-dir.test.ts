import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createListDirTool } from "./list-dir.js";
import { expectToolError, runTool, useTempWorkspace } from "./test-support/temp-workspace.js";

describe("list_dir", () => {
  const temp = useTempWorkspace();

  it("lists the workspace root sorted, with directories marked and file sizes", async () => {
    await temp.write("b.txt", "12345");
    await temp.write("a/inner.txt", "x");
    await temp.write("C.md", "x".repeat(2048));
    await symlink("b.txt", path.join(temp.workspace, "link"));
    const result = await runTool(createListDirTool({ workspace: temp.workspace }), {});
    expect(result.content).toBe(
      "Directory . (the workspace root), 4 entries:\nC.md  (2.0 KB)\na/\nb.txt  (5 B)\nlink -> b.txt",
    );
  });

  it("lists a subdirectory and says when it is empty", async () => {
    await temp.write("src/index.ts", "");
    await mkdir(path.join(temp.workspace, "empty"));
    const tool = createListDirTool({ workspace: temp.workspace });
    expect((await runTool(tool, { path: "src" })).content).toBe("Directory src/, 1 entry:\nindex.ts  (0 B)");
    expect((await runTool(tool, { path: "empty" })).content).toBe("Directory empty/ is empty.");
  });

  it("caps long listings with a note", async () => {
    for (let index = 0; index < 12; index += 1) await temp.write(`many/file-${String(index).padStart(2, "0")}.ts`, "");
    const result = await runTool(createListDirTool({ workspace: temp.workspace, maxEntries: 5 }), { path: "many" });
    const lines = result.content.split("\n");
    expect(lines.slice(1, 6)).toEqual(["file-00.ts  (0 B)", "file-01.ts  (0 B)", "file-02.ts  (0 B)", "file-03.ts  (0 B)", "file-04.ts  (0 B)"]);
    expect(result.content).toContain("Showing the first 5 of 12 entries; use glob");
  });

  it("fails clearly for files, missing paths and paths outside", async () => {
    await temp.write("a.txt", "");
    const tool = createListDirTool({ workspace: temp.workspace });
    expect(await expectToolError(runTool(tool, { path: "a.txt" }), "invalid_arguments")).toContain("read_file");
    await expectToolError(runTool(tool, { path: "missing" }), "not_found");
    await expectToolError(runTool(tool, { path: ".." }), "permission");
    await symlink(temp.outside, path.join(temp.workspace, "out"));
    await expectToolError(runTool(tool, { path: "out" }), "permission");
  });
});
