import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sseChunks, startLoopbackServer, type LoopbackServer } from "../../src/testing.js";

// Ctrl-C is a signal to the process: these run the built binary and send it SIGINT.
let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const bin = resolve("bin/ctxkit.js");
const temporary = () => mkdtemp(join(tmpdir(), "ctxkit-interrupt-"));

describe("ctxkit run interrupt", () => {
  it("exits with 130 when interrupted with Ctrl-C (SIGINT)", async () => {
    let received: () => void = () => undefined;
    const requested = new Promise<void>((resolvePromise) => (received = resolvePromise));
    // A server that never answers: the run is waiting for the model when the signal comes.
    server = await startLoopbackServer(() => {
      received();
      return new Promise(() => undefined);
    });
    const cwd = await temporary();
    const child = spawn(process.execPath, [bin, "run", "--base-url", `${server.url}/v1`, "--model", "m", "hello"], { cwd, env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" } });
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    await requested;
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolvePromise) => child.on("close", resolvePromise));
    expect(code).toBe(130);
    expect(stderr).toContain("interrupted");
  });
});

describe("ctxkit chat interrupt", () => {
  it("stops the current turn on Ctrl-C and keeps the session open", async () => {
    const slow = sseChunks(
      [
        { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
        ...Array.from({ length: 200 }, () => ({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "tick " }, finish_reason: null }] })),
      ],
      { done: true },
    );
    server = await startLoopbackServer([{ status: 200, headers: { "content-type": "text/event-stream" }, chunks: slow, delayMs: 30 }]);
    const cwd = await temporary();
    const child = spawn(process.execPath, [bin, "chat", "--base-url", `${server.url}/v1`, "--model", "m"], {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: cwd, NO_COLOR: "1" },
    });
    let stdout = "";
    let interrupted = false;
    const done = new Promise<number | null>((resolveExit) => child.on("close", resolveExit));
    child.stdout.on("data", (data: Buffer) => {
      stdout += data.toString();
      if (!interrupted && stdout.includes("tick tick tick")) {
        interrupted = true;
        child.kill("SIGINT");
      }
      if (stdout.includes("[stopped: aborted]") && !child.stdin.writableEnded) child.stdin.end("/exit\n");
    });
    child.stdin.write("Count slowly\n");
    const code = await done;
    expect(code).toBe(0);
    expect(stdout).toContain("[stopped: aborted]");
    expect(stdout).toMatch(/Session \S+ saved/);
  });
});
