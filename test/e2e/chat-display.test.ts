import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../src/testing.js";
import { runCli } from "../run-cli.js";
import { runInPty, type PtySession } from "../run-pty.js";

// What `ctxkit chat` shows: thinking collapsed with --collapse-thinking, Markdown left as text when
// piped, and the command line of a bash call in its confirmation.
let server: OpenAIModelServer | undefined;
let pty: PtySession | undefined;
afterEach(async () => {
  pty?.kill();
  pty = undefined;
  await server?.close();
  server = undefined;
});

const reply = { thinking: "Let me think about it.", text: "# Result\n\nThe fix is **done**.\n" };

describe("ctxkit chat display", { timeout: 120_000 }, () => {
  it("collapses thinking to its length with --collapse-thinking on a terminal", async () => {
    server = await startOpenAIModelServer([reply]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-display-"));
    pty = runInPty(["chat", "--base-url", server.baseURL, "--model", "m", "--collapse-thinking"], { cwd });
    await pty.waitFor("> ");
    pty.write("report\r");
    await pty.waitFor("The fix is done.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(pty.screen).toContain("(22 characters)");
    expect(pty.screen).not.toContain("Let me think about it.");
  });

  it("prints the reply as plain text when piped, and shows a bash call's command before asking", async () => {
    server = await startOpenAIModelServer([reply, { toolCalls: [{ name: "bash", arguments: { command: "rm -rf build && echo cleaned" } }] }, "Not run."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-display-"));
    const run = await runCli(["chat", "--base-url", server.baseURL, "--model", "m", "--tools", "all"], {
      cwd,
      input: ["report", { line: "clean up", waitFor: "The fix is **done**." }, { line: "n", waitFor: "[y]es / [n]o" }, { line: "/exit", waitFor: "Not run." }],
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("# Result");
    expect(run.stdout).not.toContain("\u001b[");
    expect(run.stdout).toContain("$ rm -rf build && echo cleaned");
  });
});
