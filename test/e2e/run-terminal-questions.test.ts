import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startOpenAIModelServer } from "../../src/testing.js";
import { runInPty } from "../run-pty.js";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

// The binary asks whether stdin is a terminal without opening it (isatty(0), src/cli/cli-io.ts):
// at a real terminal the question is still asked, and the answer read from the stream opened then.
describe("ctxkit run at a terminal", { timeout: 120_000 }, () => {
  it("asks whether to trust a workspace it has no decision for, and reads the answer", async () => {
    const server = await startOpenAIModelServer(["Done."]);
    const cwd = mkdtempSync(join(tmpdir(), "ctxkit-run-terminal-"));
    folders.push(cwd);
    try {
      const session = runInPty(["run", "--base-url", server.baseURL, "--model", "m", "--yes", "--no-sub-agents", "Say done."], { cwd, answerTrust: false });
      await session.waitFor("Do you trust the files", { timeoutMs: 60_000 });
      session.write("n\r");
      expect(await session.exited).toBe(0);
      expect(session.screen).toContain("not trusted; recorded in");
      expect(session.screen).toContain("Done.");
    } finally {
      await server.close();
    }
  });

  // Two readers on one stdin: the MCP question's (prepareAgentRun, closed after it) and the run's,
  // both opened only when they first read.
  it("asks about a workspace's MCP server and then a write, each answer read from the terminal", async () => {
    const server = await startOpenAIModelServer([{ toolCalls: [{ name: "edit_file", arguments: { path: "app.ts", old_string: "41", new_string: "42" } }] }, "Edited."]);
    const cwd = mkdtempSync(join(tmpdir(), "ctxkit-run-terminal-"));
    folders.push(cwd);
    writeFileSync(join(cwd, "app.ts"), "export const answer = 41;\n");
    writeFileSync(join(cwd, "ctxkit.config.json"), JSON.stringify({ mcpServers: { idle: { command: process.execPath, args: ["-e", "0"] } } }));
    try {
      const session = runInPty(["run", "--base-url", server.baseURL, "--model", "m", "--no-sub-agents", "Set the answer to 42."], { cwd });
      await session.waitFor("declares the MCP server 'idle'", { timeoutMs: 60_000 });
      session.write("n\r");
      await session.waitFor("Allow edit_file?", { timeoutMs: 60_000 });
      session.write("y\r");
      expect(await session.exited).toBe(0);
      expect(session.screen).toContain("not approved");
      expect(session.screen).toContain("Edited.");
      expect(readFileSync(join(cwd, "app.ts"), "utf8")).toBe("export const answer = 42;\n");
    } finally {
      await server.close();
    }
  });
});
