import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type LoopbackServer } from "../src/testing.js";
import { testDatabase } from "../src/session/postgres/test-support/test-database.js";
import { createFreshDatabase } from "../src/session/postgres/test-support/fresh-database.js";
import { runCli } from "./run-cli.js";

const database = await testDatabase();
let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.skipIf(database.skip !== undefined)(`ctxkit with --database-url${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  it("runs into a Postgres session, then lists, shows, inspects and removes it from there; CTXKIT_DATABASE_URL works as the flag", async () => {
    const url = await createFreshDatabase(database.url!, "cli");
    const model = await startOpenAIModelServer([{ toolCalls: [{ name: "list_dir", arguments: {} }] }, "There is one file."]);
    server = model;
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-sessions-pg-"));
    await writeFile(join(cwd, "a.txt"), "a\n");
    const run = await runCli(["run", "--database-url", url, "--base-url", model.baseURL, "--model", "m", "--json", "What files are here?"], { cwd });
    expect(run.code, run.stderr).toBe(0);
    const sessionId = (JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { sessionId: string }).sessionId;

    const list = await runCli(["sessions", "list", "--database-url", url], { cwd });
    expect(list.stdout).toContain(`${sessionId}  4 messages, 2 calls, m — What files are here?`);
    // Not in the data directory: the JSONL store of the same workspace has nothing.
    expect((await runCli(["sessions", "list"], { cwd })).stdout).toContain("No sessions in");

    const show = await runCli(["sessions", "show", sessionId], { cwd, env: { CTXKIT_DATABASE_URL: url } });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("assistant: There is one file.");

    const inspect = await runCli(["inspect", sessionId, "--database-url", url, "--json", "--tokenizer", "estimate"], { cwd });
    expect(inspect.code, inspect.stderr).toBe(0);
    expect((JSON.parse(inspect.stdout) as { transcripts: Array<{ format: string; calls: unknown[] }> }).transcripts[0]).toMatchObject({ format: "ctxkit", calls: [expect.anything(), expect.anything()] });

    const removed = await runCli(["sessions", "rm", sessionId, "--database-url", url], { cwd });
    expect(removed.stdout).toContain(`removed ${sessionId}`);
    const missing = await runCli(["sessions", "show", sessionId, "--database-url", url], { cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No session");
    // Looked up in the database too, and said so with where (its URL without the password).
    const gone = await runCli(["inspect", sessionId, "--database-url", url], { cwd });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(new RegExp(`^ctxkit inspect: ${sessionId}: neither a file \\(no ${join(cwd, sessionId)}\\) nor a session in postgres.* \\(--database-url\\); see 'ctxkit sessions list'\\.$`, "m"));
  });

  it("says what to check when the database cannot be reached", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-sessions-pg-"));
    const result = await runCli(["sessions", "list", "--database-url", "postgres://ctxkit:hunter2@127.0.0.1:1/none"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Check that PostgreSQL is running");
    expect(result.stderr).not.toContain("hunter2");
  });
});
