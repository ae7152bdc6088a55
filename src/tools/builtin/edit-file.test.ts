import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditFileTool } from "./edit-file.js";
import { createTempWorkspace, expectToolError, runTool, type TempWorkspace } from "./test-support/temp-workspace.js";

describe("edit_file", () => {
  let temp: TempWorkspace;
  const read = (relative: string) => readFile(path.join(temp.workspace, relative), "utf8");
  beforeEach(async () => {
    temp = await createTempWorkspace();
  });
  afterEach(async () => {
    await temp.remove();
  });

  it("replaces a unique string and reports the changed line", async () => {
    await temp.write("src/x.ts", "const a = 1;\nconst b = 2;\nconst c = 3;\n");
    const tool = createEditFileTool({ workspace: temp.workspace });
    const result = await runTool(tool, { path: "src/x.ts", old_string: "b = 2", new_string: "b = 20" });
    expect(result.content).toBe("Edited src/x.ts: replaced 1 occurrence; changed line 2.");
    expect(await read("src/x.ts")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
    expect(tool.requiresConfirmation).toBe(true);
  });

  it("reports the lines a multi-line replacement occupies in the new file", async () => {
    await temp.write("a.txt", "one\ntwo\nthree\n");
    const result = await runTool(createEditFileTool({ workspace: temp.workspace }), {
      path: "a.txt",
      old_string: "two\n",
      new_string: "two\ntwo and a half\n",
    });
    expect(result.content).toBe("Edited a.txt: replaced 1 occurrence; changed lines 2-3.");
    expect(await read("a.txt")).toBe("one\ntwo\ntwo and a half\nthree\n");
  });

  it("refuses a binary file as a failure, not as arguments to fix, and leaves it as it was", async () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]);
    await temp.write("image.png", bytes);
    const message = await expectToolError(runTool(createEditFileTool({ workspace: temp.workspace }), { path: "image.png", old_string: "PNG", new_string: "JPG" }), "failed");
    expect(message).toContain("binary file");
    expect(new Uint8Array(await readFile(path.join(temp.workspace, "image.png")))).toEqual(bytes);
  });

  it("fails clearly when old_string is absent", async () => {
    await temp.write("src/x.ts", "const a = 1;\n");
    const message = await expectToolError(
      runTool(createEditFileTool({ workspace: temp.workspace }), { path: "src/x.ts", old_string: "nope", new_string: "x" }),
      "not_found",
    );
    expect(message).toBe(
      "old_string not found in src/x.ts. Read the file first and copy the exact text, including whitespace.",
    );
  });

  it("hints when old_string carries read_file's line-number prefix", async () => {
    await temp.write("a.txt", "alpha\n");
    const message = await expectToolError(
      runTool(createEditFileTool({ workspace: temp.workspace }), { path: "a.txt", old_string: "     1\talpha", new_string: "beta" }),
      "not_found",
    );
    expect(message).toContain("line-number prefix");
  });

  it("refuses an ambiguous old_string and lists where it occurs", async () => {
    await temp.write("a.txt", "x = 1\ny = 2\nx = 1\nz\nx = 1\n");
    const message = await expectToolError(
      runTool(createEditFileTool({ workspace: temp.workspace }), { path: "a.txt", old_string: "x = 1", new_string: "x = 9" }),
      "invalid_arguments",
    );
    expect(message).toBe(
      "old_string occurs 3 times in a.txt (lines 1, 3, 5); add surrounding lines to make it unique or set replace_all.",
    );
    expect(await read("a.txt")).toBe("x = 1\ny = 2\nx = 1\nz\nx = 1\n");
  });

  it("replaces every occurrence with replace_all", async () => {
    await temp.write("a.txt", "x = 1\ny = 2\nx = 1\nx = 1\n");
    const result = await runTool(createEditFileTool({ workspace: temp.workspace }), {
      path: "a.txt",
      old_string: "x = 1",
      new_string: "x = 9",
      replace_all: true,
    });
    expect(result.content).toBe("Edited a.txt: replaced 3 occurrences; changed lines 1, 3-4.");
    expect(await read("a.txt")).toBe("x = 9\ny = 2\nx = 9\nx = 9\n");
  });

  it("deletes text when new_string is empty", async () => {
    await temp.write("a.txt", "keep\ndrop me\nkeep too\n");
    const result = await runTool(createEditFileTool({ workspace: temp.workspace }), {
      path: "a.txt",
      old_string: "drop me\n",
      new_string: "",
    });
    expect(result.content).toBe("Edited a.txt: replaced 1 occurrence; changed line 2.");
    expect(await read("a.txt")).toBe("keep\nkeep too\n");
  });

  it("matches LF text against a CRLF file and keeps CRLF line ends", async () => {
    await temp.write("win.txt", "a\r\nb\r\nc\r\n");
    await runTool(createEditFileTool({ workspace: temp.workspace }), {
      path: "win.txt",
      old_string: "a\nb\n",
      new_string: "a\nB\n",
    });
    expect(await read("win.txt")).toBe("a\r\nB\r\nc\r\n");
  });

  it("refuses empty or unchanged strings, missing files and paths outside", async () => {
    await temp.write("a.txt", "a");
    const tool = createEditFileTool({ workspace: temp.workspace });
    await expectToolError(runTool(tool, { path: "a.txt", old_string: "", new_string: "x" }), "invalid_arguments");
    await expectToolError(runTool(tool, { path: "a.txt", old_string: "a", new_string: "a" }), "invalid_arguments");
    await expectToolError(runTool(tool, { path: "missing.txt", old_string: "a", new_string: "b" }), "not_found");
    await expectToolError(runTool(tool, { path: "../outside/a.txt", old_string: "a", new_string: "b" }), "permission");
  });
});
