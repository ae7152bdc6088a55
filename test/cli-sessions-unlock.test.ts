import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type LoopbackServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// A lock written on another host was taken for stale and broken: two containers sharing a folder
// could write one session at once. It is held now, and a person removes it with 'sessions unlock'.
describe("a session locked from another host", () => {
  it("refuses --session with the command that unlocks it; 'ctxkit sessions unlock' removes the lock and the run resumes", async () => {
    const model = await startOpenAIModelServer(["First.", "Second."]);
    server = model;
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-unlock-"));
    const flags = ["--base-url", model.baseURL, "--model", "m"];
    const first = await runCli(["run", ...flags, "--json", "one"], { cwd });
    const sessionId = (JSON.parse(first.stdout.trim().split("\n").at(-1)!) as { sessionId: string }).sessionId;
    const lock = join(cwd, ".ctxkit", "sessions", `${sessionId}.jsonl.lock`);
    await writeFile(lock, `${JSON.stringify({ pid: 4242, host: "other-container", token: "theirs" })}\n`);

    const refused = await runCli(["run", ...flags, "--session", sessionId, "two"], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("open for writing by process 4242 on other-container, another host, whose processes this one cannot check; it was not changed.");
    expect(refused.stderr).toContain(`run 'ctxkit sessions unlock ${sessionId}' (it deletes ${lock}; give it the same --workspace or --data-dir) and run the command again.`);
    expect(existsSync(lock)).toBe(true);

    const unlocked = await runCli(["sessions", "unlock", sessionId], { cwd });
    expect(unlocked).toMatchObject({ code: 0, stdout: `unlocked ${sessionId} (it named process 4242 on other-container)\n` });
    expect(existsSync(lock)).toBe(false);
    expect((await runCli(["sessions", "unlock", sessionId], { cwd })).stdout).toBe(`${sessionId} was not locked\n`);

    const resumed = await runCli(["run", ...flags, "--session", sessionId, "two"], { cwd });
    expect(resumed.code, resumed.stderr).toBe(0);
  });

  it("needs an existing session id, and is listed in the sessions help", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-unlock-"));
    const missing = await runCli(["sessions", "unlock", "nope"], { cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No session file at");
    expect((await runCli(["sessions", "unlock"], { cwd })).code).toBe(2);
    expect((await runCli(["sessions", "--help"], { cwd })).stdout).toContain("ctxkit sessions unlock <id…>");
  });
});
