import { mkdtemp, readdir, readFile, stat } from "node:fs/promises";
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
});
