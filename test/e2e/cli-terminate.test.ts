import { spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sseChunks, startLoopbackServer, type LoopbackServer } from "../../src/testing.js";
import { isRunning, killStartedProcesses } from "../../src/tools/builtin/test-support/test-processes.js";

// Issue 30, item 5: each bash command runs in a session of its own, so when ctxkit itself was
// ended by SIGTERM or SIGHUP (a closed terminal) the shell and what it started kept running.
let server: LoopbackServer | undefined;
const leftPids: number[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  killStartedProcesses(leftPids);
});

const bin = resolve("bin/ctxkit.js");

function bashCall(command: string): string[] {
  const chunk = (delta: unknown, finish: string | null = null) => ({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });
  return sseChunks(
    [chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "bash", arguments: JSON.stringify({ command }) } }] }), chunk({}, "tool_calls")],
    { done: true },
  );
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
  }
  return undefined;
}

const onLinux = process.platform === "linux" ? describe : describe.skip;

onLinux("ctxkit run ended by a signal while bash runs", () => {
  it.each([
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)("%s kills the shell and its children, and exits with %i", async (signal, expectedCode) => {
    const command = "sleep 31 & echo $! > child.pid; echo $$ > shell.pid; wait";
    server = await startLoopbackServer([{ status: 200, headers: { "content-type": "text/event-stream" }, chunks: bashCall(command) }]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-terminate-"));
    const child = spawn(process.execPath, [bin, "run", "--base-url", `${server.url}/v1`, "--model", "m", "--tools", "bash", "--yes", "Run it."], {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: cwd, NO_COLOR: "1" },
    });
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    const closed = new Promise<number | null>((resolvePromise) => child.on("close", resolvePromise));
    const readPid = (file: string) => readFile(join(cwd, file), "utf8").then((text) => (/^\d+\n$/.test(text) ? Number(text) : undefined), () => undefined);
    const pids = await waitFor(async () => {
      const [sleeper, shell] = [await readPid("child.pid"), await readPid("shell.pid")];
      return sleeper !== undefined && shell !== undefined ? [sleeper, shell] : undefined;
    }, 20_000);
    expect(pids, stderr).toBeDefined();
    leftPids.push(...pids!);
    expect(await isRunning(pids![0]!)).toBe(true);
    child.kill(signal);
    expect(await closed).toBe(expectedCode);
    for (const pid of pids!) expect(await waitFor(async () => ((await isRunning(pid)) ? undefined : true), 2_000), `pid ${pid}`).toBe(true);
  }, 40_000);
});
