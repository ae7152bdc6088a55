import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";
import type { CliIo } from "../src/cli/cli-io.js";
import { hasTerminalInput } from "../src/cli/cli-io.js";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { cliEnvironment } from "./run-cli.js";

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An io as processIo's, whose stdin counts how often it was opened (process.stdin is made on first read). */
function countingIo(cwd: string, isTerminal: boolean): { io: CliIo; output: () => string; stdinOpened: () => number } {
  let opened = 0;
  let output = "";
  const sink = () => ({ write: (text: string | Uint8Array) => ((output += String(text)), true) }) as unknown as CliIo["stdout"];
  const io: CliIo = {
    get stdin() {
      opened += 1;
      const stdin = new PassThrough();
      stdin.end();
      return stdin;
    },
    stdout: sink(),
    stderr: sink(),
    env: cliEnvironment(cwd),
    cwd,
    stdinIsTerminal: () => isTerminal,
  };
  return { io, output: () => output, stdinOpened: () => opened };
}

describe("ctxkit run without a terminal on stdin", () => {
  it("runs to its answer without opening stdin: nothing to ask (no workspace MCP server, --yes, the workspace's trust not asked)", async () => {
    server = await startOpenAIModelServer(["Done."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-stdin-"));
    const { io, output, stdinOpened } = countingIo(cwd, false);
    const code = await main(["run", "--base-url", server.baseURL, "--model", "m", "--yes", "--no-sub-agents", "Say done."], io);
    expect(output()).toContain("Done.");
    expect(code).toBe(0);
    expect(await readdir(join(cwd, ".ctxkit", "sessions"))).toHaveLength(1);
    expect(stdinOpened()).toBe(0);
  });
});

describe("hasTerminalInput", () => {
  it("asks the io's own check when it has one, else reads stdin.isTTY", () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const base = { stdin, stdout: process.stdout, stderr: process.stderr, env: {}, cwd: "/" };
    expect(hasTerminalInput(base)).toBe(true);
    expect(hasTerminalInput({ ...base, stdinIsTerminal: () => false })).toBe(false);
    expect(hasTerminalInput({ ...base, stdin: new PassThrough() })).toBe(false);
  });
});
