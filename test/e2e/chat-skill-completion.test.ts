import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../src/testing.js";
import { skillMarkdown, writeSkillFolders } from "../../src/skills/test-support/skill-folders.js";
import { runInPty, type PtySession } from "../run-pty.js";

// `ctxkit chat` on a real pseudo-terminal: Tab after `/` offers the workspace's skills too.
let server: OpenAIModelServer | undefined;
let pty: PtySession | undefined;
afterEach(async () => {
  pty?.kill();
  pty = undefined;
  await server?.close();
  server = undefined;
});

describe("ctxkit chat completes skill names", { timeout: 120_000 }, () => {
  it("completes /<skill> with Tab and sends the completed command, expanded with the skill's body", async () => {
    server = await startOpenAIModelServer(["Notes written."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-skills-"));
    await writeSkillFolders(
      { "release-notes": skillMarkdown("release-notes", "Write release notes from the git log. Use when the user asks for a changelog.", "# Release notes\n\nRead the log since the last tag.") },
      join(cwd, ".ctxkit", "skills"),
    );
    pty = runInPty(["chat", "--base-url", server.baseURL, "--model", "m", "--status-bar", "off"], { cwd });
    await pty.waitFor("> ");
    pty.write("/rel\t");
    await pty.waitFor("/release-notes");
    pty.write(" v2\r");
    await pty.waitFor("Notes written.");
    pty.write("/exit\r");
    expect(await pty.exited).toBe(0);
    const body = JSON.parse(server.requests[0]!.body) as { messages: Array<{ role: string; content?: unknown }> };
    const userText = body.messages.filter((message) => message.role === "user").map((message) => String(message.content)).join("\n");
    expect(userText).toContain("Read the log since the last tag.");
    expect(userText).toContain("v2");
  });
});
