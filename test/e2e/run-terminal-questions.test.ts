import { mkdtempSync, rmSync } from "node:fs";
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
});
