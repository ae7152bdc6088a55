import { mkdtemp, writeFile, mkdir, appendFile } from "node:fs/promises";
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

describe("ctxkit sessions", () => {
  it("lists the workspace's sessions and shows one, and reports a damaged file without hiding the others", async () => {
    const model = await startOpenAIModelServer([{ toolCalls: [{ name: "list_dir", arguments: {} }] }, "There is one file."]);
    server = model;
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-sessions-"));
    await writeFile(join(cwd, "a.txt"), "a\n");
    const run = await runCli(["run", "--base-url", model.baseURL, "--model", "m", "--json", "What files are here?"], { cwd });
    const sessionId = (JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { sessionId: string }).sessionId;

    const list = await runCli(["sessions", "list"], { cwd });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`${sessionId}  4 messages, 2 calls, m — What files are here?`);

    const show = await runCli(["sessions", "show", sessionId], { cwd });
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/user: \[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] What files are here\?/);
    expect(show.stdout).toContain("assistant:  → list_dir({})");
    expect(show.stdout).toContain("assistant: There is one file.");

    await mkdir(join(cwd, ".ctxkit", "sessions"), { recursive: true });
    await writeFile(join(cwd, ".ctxkit", "sessions", "broken.jsonl"), '{"type":"header","format":"ctxkit-session","version":2,"id":"broken","createdAt":"x"}\nnot json\n{"type":"x"}\n');
    const listed = await runCli(["sessions", "list"], { cwd });
    expect(listed.stdout).toContain(sessionId);
    expect(listed.stdout).toMatch(/broken {2}unreadable: .*line 2/);

    const missing = await runCli(["sessions", "show", "nope"], { cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nope");
    // CLI words, not the library's: the command to run, never list().
    expect(missing.stderr).toContain("see 'ctxkit sessions list'");
    expect(missing.stderr).not.toContain("list()");
    const removeMissing = await runCli(["sessions", "rm", "nope"], { cwd });
    expect(removeMissing.code).toBe(1);
    expect(removeMissing.stderr).toContain("see 'ctxkit sessions list'");
    expect(removeMissing.stderr).not.toContain("list()");
    const resumeMissing = await runCli(["run", "--base-url", model.baseURL, "--model", "m", "--session", "nope", "Hi"], { cwd });
    expect(resumeMissing.code).toBe(1);
    expect(resumeMissing.stderr).toContain("see 'ctxkit sessions list'");
    expect(resumeMissing.stderr).not.toContain("list()");
    const chatMissing = await runCli(["chat", "--base-url", model.baseURL, "--model", "m", "--session", "nope"], { cwd, input: ["/exit"] });
    expect(chatMissing.code).toBe(1);
    expect(chatMissing.stderr).toContain("see 'ctxkit sessions list'");

    // inspect takes a session id as view does.
    const inspected = await runCli(["inspect", sessionId, "--tokenizer", "estimate"], { cwd });
    expect(inspected.stderr).toBe("");
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toContain(`${sessionId} — ctxkit, m, 2 calls`);
  });

  it("says to pass --model-path, in the CLI's words, when the model file does not exist", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-sessions-"));
    const run = await runCli(["run", "--provider", "llama", "--model-path", "/nope.gguf", "Hi"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Pass --model-path");
    expect(run.stderr).not.toContain("modelPath");
  });

  it("resumes a session whose last line was torn by a crash, reporting it", async () => {
    server = await startOpenAIModelServer(["First.", "Second."]);
    const baseURL = (server as Awaited<ReturnType<typeof startOpenAIModelServer>>).baseURL;
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-sessions-"));
    const first = await runCli(["run", "--base-url", baseURL, "--model", "m", "--json", "Hello"], { cwd });
    const sessionId = (JSON.parse(first.stdout.trim().split("\n").at(-1)!) as { sessionId: string }).sessionId;
    await appendFile(join(cwd, ".ctxkit", "sessions", `${sessionId}.jsonl`), '{"type":"message","message":{"role":"us');
    const second = await runCli(["run", "--base-url", baseURL, "--model", "m", "--session", sessionId, "Again"], { cwd });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain("torn");
  });
});
