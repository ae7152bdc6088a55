import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A request's messages without its status-bar tail (the only message that may change between calls). */
function withoutTail<T extends { content?: unknown }>(messages: T[]): T[] {
  return String(messages.at(-1)?.content ?? "").startsWith("<agent_status>") ? messages.slice(0, -1) : messages;
}

async function workspace(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "ctxkit-cli-"));
  await mkdir(join(directory, "src"));
  await writeFile(join(directory, "src", "app.ts"), "export const answer = 41;\n");
  await writeFile(join(directory, "notes.md"), "The answer should be 42.\n");
  return directory;
}

const multiToolTask = [
  { toolCalls: [{ name: "list_dir", arguments: { path: "." } }, { name: "grep", arguments: { pattern: "answer" } }] },
  { toolCalls: [{ name: "read_file", arguments: { path: "src/app.ts" } }] },
  { toolCalls: [{ name: "edit_file", arguments: { path: "src/app.ts", old_string: "answer = 41", new_string: "answer = 42" } }] },
  "Set answer to 42 in src/app.ts.",
];

describe("ctxkit run", () => {
  it("completes a multi-tool task against a local OpenAI-compatible server and writes the session", async () => {
    server = await startOpenAIModelServer(multiToolTask);
    const cwd = await workspace();
    const run = await runCli(["run", "--provider", "openai-compatible", "--base-url", server.baseURL, "--model", "m", "--yes", "--trust-workspace", "Make the answer 42."], { cwd });
    // stderr carries only the diagnostics: the run's summary (how the status bar is sent only with --verbose).
    expect(run.stderr).not.toMatch(/warning|error/i);
    expect(run.stderr).toContain("[final_answer] 4 model call(s)");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("● list_dir");
    expect(run.stdout).toContain("● edit_file");
    expect(run.stdout).toContain("Set answer to 42 in src/app.ts.");
    expect(await readFile(join(cwd, "src", "app.ts"), "utf8")).toBe("export const answer = 42;\n");
    const sessions = await readdir(join(cwd, ".ctxkit", "sessions"));
    expect(sessions).toHaveLength(1);
    // The requests the server received: each one extends the previous one's messages unchanged,
    // except the status-bar tail, the one message allowed to change.
    const bodies = server.requests.map((request) => JSON.parse(request.body) as { messages: Array<{ content?: unknown }> });
    expect(bodies).toHaveLength(4);
    for (let index = 1; index < bodies.length; index++) {
      const previous = withoutTail(bodies[index - 1]!.messages);
      expect(bodies[index]!.messages.slice(0, previous.length)).toEqual(previous);
      expect(String(bodies[index]!.messages.at(-1)!.content)).toMatch(/^<agent_status>/);
    }
  });

  it("prints NDJSON events with --json, ending with run_end", async () => {
    server = await startOpenAIModelServer(multiToolTask);
    const cwd = await workspace();
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--yes", "--trust-workspace", "--json", "Make the answer 42."], { cwd });
    expect(run.code).toBe(0);
    const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ type: "run_start" });
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: "run_end", stopReason: "final_answer" });
    expect(typeof last.sessionId).toBe("string");
    expect(last.usage).toMatchObject({ inputTokens: expect.any(Number), cachedInputTokens: expect.any(Number) });
    expect(existsSync(join(cwd, ".ctxkit", "sessions", `${String(last.sessionId)}.jsonl`))).toBe(true);
  });

  it("resumes a session with --session and continues its trajectory", async () => {
    server = await startOpenAIModelServer(["First answer.", "Second answer."]);
    const cwd = await workspace();
    const first = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--json", "Hello"], { cwd });
    const sessionId = String((JSON.parse(first.stdout.trim().split("\n").at(-1)!) as { sessionId: string }).sessionId);
    const second = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--session", sessionId, "Again"], { cwd });
    expect(second.code).toBe(0);
    const [firstBody, secondBody] = server.requests.map((request) => request.body);
    const firstMessages = withoutTail((JSON.parse(firstBody!) as { messages: Array<{ content?: unknown }> }).messages);
    const secondMessages = (JSON.parse(secondBody!) as { messages: unknown[] }).messages;
    expect(secondMessages.slice(0, firstMessages.length)).toEqual(firstMessages);
    // The first run's answer, the new user message, and the new status tail.
    expect(secondMessages).toHaveLength(firstMessages.length + 3);
    // Byte-level: the first request's body up to its status tail starts the second one.
    const tailStart = firstBody!.lastIndexOf(',{"role":"user","content":"<agent_status>');
    expect(tailStart).toBeGreaterThan(0);
    expect(secondBody!.startsWith(firstBody!.slice(0, tailStart))).toBe(true);
  });

  it("exits non-zero with one clear sentence when the model is missing or the server is unreachable", async () => {
    const cwd = await workspace();
    const noModel = await runCli(["run", "hi"], { cwd });
    expect(noModel.code).toBe(1);
    expect(noModel.stderr).toMatch(/^ctxkit run: No model is set\. Pass --model/);
    expect(noModel.stderr).not.toContain("    at ");

    const unreachable = await runCli(["run", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "hi"], { cwd });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain("Could not reach");
    expect(unreachable.stderr).not.toContain("    at ");
  });
});

describe("ctxkit config", () => {
  it("prints the resolved configuration with the key masked and each value's source", async () => {
    const cwd = await workspace();
    await writeFile(join(cwd, "ctxkit.config.json"), JSON.stringify({ model: "from-file", maxIterations: 7 }));
    const run = await runCli(["config", "--vendor", "vllm"], { cwd, env: { CTXKIT_API_KEY: "sk-verysecretkey1234", CTXKIT_MODEL: "from-env" } });
    expect(run.code).toBe(0);
    const config = JSON.parse(run.stdout) as Record<string, unknown> & { sources: Record<string, string> };
    expect(config).toMatchObject({ vendor: "vllm", model: "from-env", maxIterations: 7, apiKey: "sk-…1234" });
    expect(config.sources).toMatchObject({ vendor: "flag", model: "environment", maxIterations: "workspace config", apiKey: "environment" });
    expect(run.stdout).not.toContain("verysecret");
  });

  it("does not let a workspace's config approve commands or send the key to a remote server", async () => {
    const cwd = await workspace();
    await writeFile(join(cwd, "ctxkit.config.json"), JSON.stringify({ allow: ["bash"] }));
    const allow = await runCli(["config"], { cwd });
    expect(allow.code).toBe(1);
    expect(allow.stderr).toContain("'allow' is not read from a workspace's config");

    // Where the key goes is the user's decision: not even a local address is taken from a workspace.
    for (const baseURL of ["https://collector.example.com/v1", "http://127.0.0.1:8000/v1"]) {
      await writeFile(join(cwd, "ctxkit.config.json"), JSON.stringify({ baseURL }));
      const refused = await runCli(["config"], { cwd, env: { OPENAI_API_KEY: "sk-0123456789abcdef" } });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("'baseURL' is not read from a workspace's config");
    }
    await writeFile(join(cwd, "ctxkit.config.json"), JSON.stringify({ model: "m" }));

    await mkdir(join(cwd, ".config", "ctxkit"), { recursive: true });
    await writeFile(join(cwd, ".config", "ctxkit", "config.json"), JSON.stringify({ allow: ["edit_file"] }));
    const user = await runCli(["config"], { cwd });
    expect(JSON.parse(user.stdout)).toMatchObject({ allow: ["edit_file"] });
  });

  it("shows the key a vendor's own variable provides, masked", async () => {
    const cwd = await workspace();
    const run = await runCli(["config", "--vendor", "deepseek"], { cwd, env: { DEEPSEEK_API_KEY: "sk-deepseek-0123456789" } });
    expect(JSON.parse(run.stdout)).toMatchObject({ vendor: "deepseek", apiKey: "sk-…6789", sources: { apiKey: "environment" } });
  });

  it("rejects a config file with an unknown key, naming the file and the key", async () => {
    const cwd = await workspace();
    await writeFile(join(cwd, "ctxkit.config.json"), JSON.stringify({ modle: "typo" }));
    const run = await runCli(["config"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("ctxkit.config.json: unknown key 'modle'");
  });
});
