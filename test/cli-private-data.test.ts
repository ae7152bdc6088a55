import { chmod, mkdir, mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

// Issue 24, failure 10: sessions, notes and --log-requests files were 0644 in 0755 folders, and
// `.ctxkit/` had no .gitignore, so `git add -A` committed transcripts of what the model read.
let model: OpenAIModelServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe("what ctxkit stores stays private", () => {
  it("writes sessions, notes and the request log 0600 in 0700 folders, and a .gitignore of '*' in a new .ctxkit", async () => {
    model = await startOpenAIModelServer((_body, call) =>
      call === 0 ? { toolCalls: [{ name: "notes_write", arguments: { text: "the .env says API_TOKEN=abc" } }] } : "noted",
    );
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-private-"));
    const run = await runCli(["run", "--base-url", model.baseURL, "--model", "m", "--log-requests", "requests.jsonl", "Note the token."], { cwd, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const data = join(cwd, ".ctxkit");
    expect(await readFile(join(data, ".gitignore"), "utf8")).toMatch(/^\*$/m);
    expect(await modeOf(data)).toBe(0o700);
    const sessions = join(data, "sessions");
    expect(await modeOf(sessions)).toBe(0o700);
    const [session] = (await readdir(sessions)).filter((name) => name.endsWith(".jsonl"));
    expect(await modeOf(join(sessions, session!))).toBe(0o600);
    const notes = join(data, "notes");
    expect(await modeOf(notes)).toBe(0o700);
    const [note] = await readdir(notes);
    expect(await readFile(join(notes, note!), "utf8")).toContain("API_TOKEN");
    expect(await modeOf(join(notes, note!))).toBe(0o600);
    expect(await modeOf(join(cwd, "requests.jsonl"))).toBe(0o600);
  });

  // Found in the audit of issue 24: only a .ctxkit ctxkit created itself was made private. One made by an
  // older ctxkit stayed 0755 with no .gitignore, so `git add -A` still committed every existing user's transcripts.
  it("makes a .ctxkit that already exists 0700, its folders too, and gives it the .gitignore", async () => {
    model = await startOpenAIModelServer(["hello"]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-private-"));
    const data = join(cwd, ".ctxkit");
    await mkdir(join(data, "sessions"), { recursive: true, mode: 0o755 });
    await chmod(data, 0o755);
    await chmod(join(data, "sessions"), 0o755);
    const run = await runCli(["run", "--base-url", model.baseURL, "--model", "m", "Hi."], { cwd, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(await modeOf(data)).toBe(0o700);
    expect(await modeOf(join(data, "sessions"))).toBe(0o700);
    expect(await readFile(join(data, ".gitignore"), "utf8")).toMatch(/^\*$/m);
  });

  // Found in the audit of issue 24: --repair wrote the repaired session through a temporary file opened
  // with the default mode (0644) and renamed it over the session, so a repaired transcript became world-readable.
  it("rewrites a repaired session 0600, and keeps the copies of the original 0600", async () => {
    model = await startOpenAIModelServer(["First answer.", "Second answer."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-private-"));
    const first = await runCli(["run", "--base-url", model.baseURL, "--model", "m", "--json", "Hello"], { cwd, timeoutMs: 60_000 });
    const sessionId = String((JSON.parse(first.stdout.trim().split("\n").at(-1)!) as { sessionId: string }).sessionId);
    const file = join(cwd, ".ctxkit", "sessions", `${sessionId}.jsonl`);
    const lines = (await readFile(file, "utf8")).split("\n").slice(0, -1);
    const messageLine = lines.findIndex((line) => line.startsWith('{"type":"message"'));
    lines.splice(messageLine + 1, 0, lines[messageLine]!);
    await writeFile(file, `${lines.join("\n")}\n`);
    // As an older ctxkit left it.
    await chmod(file, 0o644);
    const repaired = await runCli(["run", "--base-url", model.baseURL, "--model", "m", "--session", sessionId, "--repair", "Again"], { cwd, timeoutMs: 60_000 });
    expect(repaired.code).toBe(0);
    expect(repaired.stderr).toContain("Repaired:");
    expect(await modeOf(file)).toBe(0o600);
    expect(await modeOf(`${file}.before-repair`)).toBe(0o600);
    expect(await modeOf(`${file}.removed`)).toBe(0o600);
  });
});
