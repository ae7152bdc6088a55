import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

describe("ctxkit lint tools", () => {
  it("reads a tools file saved with a UTF-8 byte-order mark (Windows PowerShell 5.1)", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-lint-tools-"));
    const tools = [{ type: "function", function: { name: "search", description: "Search the docs.", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } } }];
    await writeFile(join(cwd, "tools.json"), `\uFEFF${JSON.stringify(tools)}`);
    const run = await runCli(["lint", "tools", "tools.json", "--json"], { cwd });
    expect(run.stderr).toBe("");
    const output = JSON.parse(run.stdout) as { tools: number; findings: Array<{ code: string }> };
    expect(output.tools).toBe(1);
    expect(output.findings.map((finding) => finding.code)).toContain("parameter_without_description");
  });

  it("shows a downloaded file's tool names with terminal controls escaped", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-lint-tools-"));
    await writeFile(join(cwd, "tools.json"), JSON.stringify([{ name: "search\u001b]0;owned\u0007\u202e", description: "", parameters: { type: "object", properties: {} } }]));
    const run = await runCli(["lint", "tools", "tools.json"], { cwd });
    expect(run.stdout).toContain("search\\u001B]0;owned\\u0007\\u202E");
    // eslint-disable-next-line no-control-regex -- no raw terminal control may reach the output
    expect(run.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
  });
});
