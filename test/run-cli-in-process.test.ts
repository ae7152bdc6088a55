import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scriptServer } from "../src/mcp/test-support/mcp-test-servers.js";
import { startOpenAIModelServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

// The CLI runs in the test process (runCli calls main(argv, io)): a command must leave nothing
// behind that a process exit would have cleaned up — timers, sockets, child processes, signal and
// exit listeners — and must read its environment and folder from io, not from the process.
const listeners = () => ({ SIGINT: process.listenerCount("SIGINT"), SIGTERM: process.listenerCount("SIGTERM"), exit: process.listenerCount("exit") });
// What a command could leave (the test runner's own pipes and closing requests are not counted).
const resources = () => process.getActiveResourcesInfo().filter((kind) => !["PipeWrap", "TTYWrap", "CloseReq", "FSReqCallback"].includes(kind)).sort();

async function settled(): Promise<void> {
  // Closed sockets and exited children report on a later turn of the event loop.
  for (let turn = 0; turn < 20; turn++) await new Promise((resolvePromise) => setTimeout(resolvePromise, 10));
}

describe("the CLI in-process", () => {
  it("leaves no timer, socket, child process or signal listener behind after run (with an MCP server), chat and demo", async () => {
    await settled();
    const before = { resources: resources(), listeners: listeners() };
    const model = await startOpenAIModelServer([{ toolCalls: [{ name: "mcp__script__pid", arguments: {} }] }, "Done.", "Hello.", "Bye."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-in-process-"));
    await writeFile(join(cwd, "mcp.json"), JSON.stringify({ mcpServers: { script: scriptServer() } }));
    try {
      const run = await runCli(["run", "--base-url", model.baseURL, "--model", "m", "--yes", "--mcp-config", "mcp.json", "Which pid?"], { cwd, timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      const chat = await runCli(["chat", "--base-url", model.baseURL, "--model", "m"], { cwd, input: ["Hi.", { line: "Again.", waitFor: "Hello." }], timeoutMs: 60_000 });
      expect(chat.code, chat.stderr).toBe(0);
      const demo = await runCli(["demo", "--dir", join(cwd, "demo")], { cwd, timeoutMs: 120_000 });
      expect(demo.code, demo.stderr).toBe(0);
    } finally {
      await model.close();
    }
    await settled();
    expect({ resources: resources(), listeners: listeners() }).toEqual(before);
  }, 180_000);

  it("reads the environment and the working folder it is given, not the process's", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-in-process-"));
    await writeFile(join(cwd, "ctxkit.config.json"), JSON.stringify({ model: "from-the-workspace" }));
    const run = await runCli(["config", "--json"], { cwd, env: { CTXKIT_MAX_ITERATIONS: "7" } });
    expect(run.code, run.stderr).toBe(0);
    const config = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(JSON.stringify(config)).toContain(cwd);
    expect(JSON.stringify(config)).toContain("from-the-workspace");
    expect(JSON.stringify(config)).toMatch(/"maxIterations"\s*:\s*(\{[^}]*"value"\s*:\s*)?7/);
  });
});
