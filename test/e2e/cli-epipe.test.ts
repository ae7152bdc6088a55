import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../src/testing.js";
import { runCli } from "../run-cli.js";

// `ctxkit run --json | head -1` and `ctxkit sessions show <id> | head -1`: the reader leaves after
// the first chunk; ctxkit exits quietly with no stack trace (EPIPE is not an error worth one).
let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const bin = resolve("bin/ctxkit.js");

function runUntilFirstOutput(args: string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env: { PATH: process.env.PATH ?? "", HOME: cwd, NO_COLOR: "1" } });
  let stderr = "";
  child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
  child.stdout.once("data", () => child.stdout.destroy());
  return new Promise((resolvePromise) => child.on("close", (code) => resolvePromise({ code, stderr })));
}

describe("ctxkit output to a reader that leaves", { timeout: 120_000 }, () => {
  it("run --json and sessions show exit quietly when their reader closes the pipe", async () => {
    // Long answers, so the output is still being written when the reader has gone.
    server = await startOpenAIModelServer(() => `${"word ".repeat(20_000)}done.`);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-epipe-"));
    const run = await runUntilFirstOutput(["run", "--base-url", server.baseURL, "--model", "m", "--json", "--status-bar", "off", "hello"], cwd);
    expect(run.stderr).not.toMatch(/EPIPE|Error:|at /);
    expect(run.code).toBe(0);

    const stored = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--json", "again"], { cwd, timeoutMs: 60_000 });
    const sessionId = String((JSON.parse(stored.stdout.trim().split("\n").at(-1)!) as { sessionId: string }).sessionId);
    const show = await runUntilFirstOutput(["sessions", "show", sessionId], cwd);
    expect(show.stderr).toBe("");
    expect(show.code).toBe(0);
  });

  it("exits quietly when the reader of its output goes away (ctxkit demo | head -1)", async () => {
    const child = spawn(process.execPath, [bin, "demo"], { cwd: await mkdtemp(join(tmpdir(), "ctxkit-epipe-")), env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" } });
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolvePromise) => child.on("close", resolvePromise));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
