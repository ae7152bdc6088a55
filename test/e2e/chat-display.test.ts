import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../src/testing.js";
import { runInPty, type PtySession } from "../run-pty.js";

// What `ctxkit chat` shows on a terminal: thinking collapsed with --collapse-thinking (piped output:
// test/chat-display-piped.test.ts).
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
});
