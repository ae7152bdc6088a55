import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

// What `ctxkit chat` shows when piped: Markdown left as text, and the command line of a bash call in
// its confirmation (on a terminal: test/e2e/chat-display.test.ts).
let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const reply = { thinking: "Let me think about it.", text: "# Result\n\nThe fix is **done**.\n" };

describe("ctxkit chat display, piped", { timeout: 120_000 }, () => {
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
