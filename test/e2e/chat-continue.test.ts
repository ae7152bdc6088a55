import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../src/testing.js";
import { runInPty, type PtySession } from "../run-pty.js";

// `ctxkit chat --continue` on a pseudo-terminal picks up the workspace's latest session.
let server: OpenAIModelServer | undefined;
let pty: PtySession | undefined;
afterEach(async () => {
  pty?.kill();
  pty = undefined;
  await server?.close();
  server = undefined;
});

describe("ctxkit chat --continue", { timeout: 120_000 }, () => {
  it("resumes the latest session of the workspace with its messages", async () => {
    server = await startOpenAIModelServer(["First answer.", "Second answer."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-continue-"));
    pty = runInPty(["chat", "--base-url", server.baseURL, "--model", "m"], { cwd });
    await pty.waitFor("> ");
    pty.write("remember the word kiwi\r");
    await pty.waitFor("First answer.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    const sessionId = /Session (\S+) saved/.exec(pty.screen)?.[1];
    expect(sessionId).toBeDefined();

    pty = runInPty(["chat", "--base-url", server.baseURL, "--model", "m", "--continue"], { cwd });
    await pty.waitFor(`Resumed session ${sessionId}`);
    await pty.waitFor("> ");
    pty.write("what was the word?\r");
    await pty.waitFor("Second answer.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    const resumed = JSON.parse(server.requests.at(-1)!.body) as { messages: Array<{ role: string; content?: unknown }> };
    expect(resumed.messages.filter((message) => message.role === "user").map((message) => String(message.content))).toEqual(
      expect.arrayContaining([expect.stringContaining("remember the word kiwi"), expect.stringContaining("what was the word?")]),
    );
  });
});
