import { symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGrepTool } from "./grep.js";
import { createTempWorkspace, expectToolError, runTool, type TempWorkspace } from "./test-support/temp-workspace.js";

describe("grep", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await createTempWorkspace();
    await temp.write("src/a.ts", "import x from 'y';\nexport function createAgent() {}\n");
    await temp.write("src/b.tsx", "// TODO: createAgent here\n");
    await temp.write("docs/notes.md", "Call CREATEAGENT first.\n");
    await temp.write("node_modules/pkg/index.ts", "export function createAgent() {}\n");
  });
  afterEach(async () => {
    await temp.remove();
  });

  it("prints path:line: text for each match, files in name order", async () => {
    const result = await runTool(createGrepTool({ workspace: temp.workspace }), { pattern: "createAgent" });
    expect(result.content).toBe("src/a.ts:2: export function createAgent() {}\nsrc/b.tsx:1: // TODO: createAgent here");
  });

  it("filters file names with include and honours ignore_case and path", async () => {
    const tool = createGrepTool({ workspace: temp.workspace });
    expect((await runTool(tool, { pattern: "createagent", include: "*.ts", ignore_case: true })).content).toBe(
      "src/a.ts:2: export function createAgent() {}",
    );
    expect((await runTool(tool, { pattern: "createagent", path: "docs", ignore_case: true })).content).toBe(
      "docs/notes.md:1: Call CREATEAGENT first.",
    );
    expect((await runTool(tool, { pattern: "TODO", path: "src/b.tsx", include: "*.md" })).content).toBe(
      "src/b.tsx:1: // TODO: createAgent here",
    );
    expect((await runTool(tool, { pattern: "TODO", include: "src/*.{ts,tsx}" })).content).toBe(
      "src/b.tsx:1: // TODO: createAgent here",
    );
  });

  it("caps results and says how many more matches there were", async () => {
    await temp.write("many.txt", Array.from({ length: 30 }, (_, index) => `hit ${index}`).join("\n"));
    const result = await runTool(createGrepTool({ workspace: temp.workspace }), { pattern: "^hit", max_results: 5 });
    const lines = result.content.split("\n");
    expect(lines.slice(0, 5)).toEqual(["many.txt:1: hit 0", "many.txt:2: hit 1", "many.txt:3: hit 2", "many.txt:4: hit 3", "many.txt:5: hit 4"]);
    expect(lines.at(-1)).toBe("25 more matches not shown (30 in total); narrow the pattern, path or include, or raise max_results.");
  });

  it("rejects an invalid regular expression with the parser's reason", async () => {
    const message = await expectToolError(
      runTool(createGrepTool({ workspace: temp.workspace }), { pattern: "foo(" }),
      "invalid_arguments",
    );
    expect(message).toContain("Invalid regular expression");
    expect(message).toContain("escape");
  });

  it("skips binary files, large files and symlinks", async () => {
    await temp.write("blob.bin", Buffer.concat([Buffer.from("createAgent"), Buffer.from([0, 1, 2])]));
    await temp.write("big.txt", `createAgent\n${"x".repeat(200)}`);
    await writeFile(path.join(temp.outside, "secret.ts"), "createAgent secret\n");
    await symlink(path.join(temp.outside, "secret.ts"), path.join(temp.workspace, "link.ts"));
    const result = await runTool(createGrepTool({ workspace: temp.workspace, maxFileBytes: 100 }), {
      pattern: "createAgent",
    });
    expect(result.content).not.toMatch(/blob\.bin|big\.txt:|secret|node_modules/);
    expect(result.content).toContain("Skipped 1 file larger than 100 B.");
  });

  it("cuts long matching lines around the match", async () => {
    await temp.write("min.js", `${"a".repeat(1000)}NEEDLE${"b".repeat(1000)}`);
    const result = await runTool(createGrepTool({ workspace: temp.workspace }), { pattern: "NEEDLE" });
    expect(result.content).toMatch(/^min\.js:1: …a+NEEDLEb+… \[line cut: 2006 characters\]$/);
    expect(result.content.length).toBeLessThan(400);
  });

  it("says when nothing matched and refuses paths outside", async () => {
    const tool = createGrepTool({ workspace: temp.workspace });
    expect((await runTool(tool, { pattern: "absent", include: "*.ts" })).content).toBe(
      "No matches for /absent/ in '.' (searched 1 file matching '*.ts').",
    );
    await expectToolError(runTool(tool, { pattern: "x", path: "../outside" }), "permission");
  });

  // The trial that found it: `^(a+)+$` on forty `a`s and a `!` blocked the process (no tool result,
  // the tool timeout could not fire, SIGINT ignored) because the match ran on the main thread.
  it("stops a catastrophically backtracking pattern within its budget and answers with a timeout error", async () => {
    await temp.write("redos.txt", `${"a".repeat(40)}!\n`);
    const tool = createGrepTool({ workspace: temp.workspace, patternTimeoutMs: 300 });
    const started = performance.now();
    const message = await expectToolError(runTool(tool, { pattern: "^(a+)+$", path: "redos.txt" }), "timeout");
    // Generous proof of "no hang": the match alone would take far longer than minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(message).toContain("backtracks catastrophically");
    expect(message).toContain("redos.txt");
  });

  it("stops the search when the run is aborted while a pattern is matching", async () => {
    await temp.write("redos.txt", `${"a".repeat(40)}!\n`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const tool = createGrepTool({ workspace: temp.workspace });
    await expectToolError(runTool(tool, { pattern: "^(a+)+$", path: "redos.txt" }, controller.signal), "timeout");
  });

  // max_results 1000000 returned a 3 MB result: the byte cap now holds whatever the model asks for.
  it("caps the output in bytes even when max_results asks for a million lines", async () => {
    await temp.write("many.txt", "match this line\n".repeat(20_000));
    const tool = createGrepTool({ workspace: temp.workspace, maxOutputBytes: 4 * 1024 });
    const result = await runTool(tool, { pattern: "match", path: "many.txt", max_results: 1_000_000 });
    expect(Buffer.byteLength(result.content)).toBeLessThan(5 * 1024);
    expect(result.content).toContain("20000 in total; output is capped at 4.0 KB per call");
  });
});
