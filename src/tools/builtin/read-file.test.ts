import { describe, expect, it } from "vitest";
import { createReadFileTool } from "./read-file.js";
import { expectToolError, runTool, useTempWorkspace } from "./test-support/temp-workspace.js";

function numberedLines(count: number, text: (line: number) => string = (line) => `line ${line}`): string {
  return Array.from({ length: count }, (_, index) => text(index + 1)).join("\n") + "\n";
}

describe("read_file", () => {
  const temp = useTempWorkspace();

  it("numbers lines like cat -n", async () => {
    await temp.write("a.txt", "first\n  second\n");
    const result = await runTool(createReadFileTool({ workspace: temp.workspace }), { path: "a.txt" });
    expect(result).toEqual({ content: "     1\tfirst\n     2\t  second", isError: false });
  });

  it("counts a last line without a newline and strips CRLF line ends", async () => {
    await temp.write("crlf.txt", "one\r\ntwo\r\nthree");
    const result = await runTool(createReadFileTool({ workspace: temp.workspace }), { path: "crlf.txt" });
    expect(result.content).toBe("     1\tone\n     2\ttwo\n     3\tthree");
  });

  it("shows 2000 lines by default and says exactly how to read more", async () => {
    await temp.write("big.txt", numberedLines(5231));
    const result = await runTool(createReadFileTool({ workspace: temp.workspace }), { path: "big.txt" });
    const lines = result.content.split("\n");
    expect(lines[0]).toBe("     1\tline 1");
    expect(lines[1999]).toBe("  2000\tline 2000");
    expect(lines.at(-1)).toBe("File has 5231 lines; showing 1-2000. Call read_file with offset=2001 to continue.");
  });

  it("continues from an offset and ends without a note on the last page", async () => {
    await temp.write("big.txt", numberedLines(5231));
    const tool = createReadFileTool({ workspace: temp.workspace });
    const middle = await runTool(tool, { path: "big.txt", offset: 2001, limit: 10 });
    expect(middle.content.split("\n")[0]).toBe("  2001\tline 2001");
    expect(middle.content).toContain("showing 2001-2010. Call read_file with offset=2011 to continue.");
    const last = await runTool(tool, { path: "big.txt", offset: 5001 });
    expect(last.content.split("\n").at(-1)).toBe("  5231\tline 5231");
  });

  it("caps output bytes and continues from the first line not shown", async () => {
    await temp.write("wide.txt", numberedLines(1000, (line) => `${line}:${"x".repeat(100)}`));
    const result = await runTool(createReadFileTool({ workspace: temp.workspace }), { path: "wide.txt" });
    expect(Buffer.byteLength(result.content)).toBeLessThan(51 * 1024);
    const note = result.content.split("\n").at(-1) ?? "";
    const match = /showing 1-(\d+) \(output is capped at 50 KB per call\)\. Call read_file with offset=(\d+) to continue\.$/.exec(note);
    expect(match).not.toBeNull();
    expect(Number(match?.[2])).toBe(Number(match?.[1]) + 1);
    expect(result.content).toContain(`${match?.[1]}:xxx`);
  });

  it("cuts very long lines with a marker", async () => {
    await temp.write("minified.js", `${"y".repeat(5000)}\nshort\n`);
    const result = await runTool(createReadFileTool({ workspace: temp.workspace }), { path: "minified.js" });
    expect(result.content).toContain(`${"y".repeat(2000)}… [line cut: 5000 characters]`);
    expect(result.content).toContain("     2\tshort");
  });

  it("refuses binary files as a failure, not as arguments to fix (the path was right)", async () => {
    await temp.write("image.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    const message = await expectToolError(runTool(createReadFileTool({ workspace: temp.workspace }), { path: "image.png" }), "failed");
    expect(message).toContain("binary file");
    expect(message).toContain("Do not read it again");
  });

  it("reports missing files with a hint to list the parent", async () => {
    await temp.write("src/other.ts", "");
    const message = await expectToolError(
      runTool(createReadFileTool({ workspace: temp.workspace }), { path: "src/missing.ts" }),
      "not_found",
    );
    expect(message).toContain("list_dir with path 'src'");
  });

  it("points directories to list_dir", async () => {
    await temp.write("src/a.ts", "");
    const message = await expectToolError(
      runTool(createReadFileTool({ workspace: temp.workspace }), { path: "src" }),
      "invalid_arguments",
    );
    expect(message).toContain("list_dir");
  });

  it("says when a file is empty or the offset is past its end", async () => {
    await temp.write("empty.txt", "");
    await temp.write("three.txt", "a\nb\nc\n");
    const tool = createReadFileTool({ workspace: temp.workspace });
    expect((await runTool(tool, { path: "empty.txt" })).content).toBe("File empty.txt is empty (0 lines).");
    const message = await expectToolError(runTool(tool, { path: "three.txt", offset: 10 }), "invalid_arguments");
    expect(message).toBe("offset 10 is past the end of three.txt, which has 3 lines.");
  });

  it("refuses paths outside the workspace", async () => {
    const tool = createReadFileTool({ workspace: temp.workspace });
    await expectToolError(runTool(tool, { path: "../outside/x" }), "permission");
    await expectToolError(runTool(tool, { path: "/etc/passwd" }), "permission");
  });
});
