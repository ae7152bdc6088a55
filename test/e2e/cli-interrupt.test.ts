import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sseChunks, startLoopbackServer, startOpenAIModelServer, type LoopbackServer } from "../../src/testing.js";

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

describe("ctxkit run interrupted during a bash call", () => {
  it("keeps the interrupted turn in the session: bash's guard of the data folder does not undo the session's own writes", async () => {
    const model = await startOpenAIModelServer([{ text: "Running.", toolCalls: [{ name: "bash", arguments: { command: "sleep 30" } }] }]);
    server = model;
    const cwd = await temporary();
    const child = spawn(process.execPath, [bin, "run", "--base-url", model.baseURL, "--model", "m", "--tools", "all", "--yes", "run it"], {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: cwd, NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    let interrupting = false;
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.stdout.on("data", (data: Buffer) => {
      stdout += data.toString();
      // The call line is printed as bash starts; a moment later the sleep is surely running. One Ctrl-C only.
      if (!interrupting && stdout.includes("● bash")) {
        interrupting = true;
        setTimeout(() => child.kill("SIGINT"), 500);
      }
    });
    const code = await new Promise<number | null>((resolvePromise) => child.on("close", resolvePromise));
    expect(code, stderr).toBe(130);
    expect(stderr).not.toContain("the change was undone");
    const [file] = await readdir(join(cwd, ".ctxkit/sessions"));
    const lines = (await readFile(join(cwd, ".ctxkit/sessions", file!), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { type: string; message?: { role: string } });
    expect(lines.filter((line) => line.type === "message").map((line) => line.message!.role)).toEqual(["user", "assistant", "tool"]);
    expect(lines.some((line) => line.type === "usage")).toBe(true);
  }, 30_000);
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
