import { spawn } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../src/testing.js";
import { isRunning, scriptServer } from "../../src/mcp/test-support/mcp-test-servers.js";

// Ctrl-C in the middle of an MCP call that hangs: ctxkit exits with 130 and the server's process is gone.
let model: OpenAIModelServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (condition()) return;
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("ctxkit run with MCP servers, interrupted", () => {
  it("ends the server's process when Ctrl-C stops a hanging call", async () => {
    model = await startOpenAIModelServer([{ toolCalls: [{ name: "mcp__script__pid", arguments: {} }] }, { toolCalls: [{ name: "mcp__script__hang", arguments: {} }] }, "unreached"]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-cli-mcp-int-"));
    await writeFile(join(cwd, "mcp.json"), JSON.stringify({ mcpServers: { script: scriptServer() } }));
    // The server's first result is untrusted content: the user lets its next tool run under that taint.
    await mkdir(join(cwd, ".config", "ctxkit"), { recursive: true });
    await writeFile(join(cwd, ".config", "ctxkit", "config.json"), JSON.stringify({ allowUnderTaint: ["mcp__script__hang"] }));
    const child = spawn(process.execPath, [resolve("bin/ctxkit.js"), "run", "--base-url", model.baseURL, "--model", "m", "--yes", "--mcp-config", "mcp.json", "Hang."], {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: cwd, XDG_CONFIG_HOME: `${cwd}/.config`, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolvePromise) => child.on("close", (code) => resolvePromise(code)));
    await until(() => model!.requests.length >= 2, "the second model call");
    const body = JSON.parse(model.requests[1]!.body) as { messages: Array<{ role: string; content?: unknown }> };
    // The result is tagged as external content: the pid is the last number before the closing tag.
    const pid = Number(/(\d+)\s*(?:<\/external_content [^>]*>)?\s*$/.exec(String(body.messages.find((message) => message.role === "tool")?.content))?.[1]);
    expect(isRunning(pid)).toBe(true);
    // The hang call starts right after the second answer; give it a moment to be in flight.
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 1_000));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain("interrupted");
    await until(() => !isRunning(pid), "the server's process to end");
    expect(isRunning(pid)).toBe(false);
  }, 120_000);
});
