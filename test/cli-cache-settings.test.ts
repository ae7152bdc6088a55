import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../src/testing/loopback-server.js";
import { runCli } from "./run-cli.js";

// The answer turn of a real recorded gpt-5.1-codex-max stream (vercel/ai fixture; see
// src/providers/openai-responses/fixtures/README.md), served as the API sends it.
const recorded = (await readFile(new URL("../src/providers/openai-responses/fixtures/gpt-5.1-codex-max-reasoning-tool-loop.jsonl", import.meta.url), "utf8")).split("\n").filter((line) => line.trim() !== "");
const lastResponse = recorded.slice(recorded.map((line, index) => (line.startsWith('{"type":"response.created"') ? index : -1)).filter((index) => index >= 0).at(-1));
const sse = (lines: string[]): ScriptedHttpResponse => ({
  headers: { "content-type": "text/event-stream" },
  chunks: lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`),
});
const chatAnswer: ScriptedHttpResponse = {
  headers: { "content-type": "text/event-stream" },
  chunks: [
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "Done." }, finish_reason: "stop" }] })}\n\n`,
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } })}\n\n`,
    "data: [DONE]\n\n",
  ],
};

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("cache settings on the command line", () => {
  it("runs --provider openai-responses statelessly with the session id as prompt_cache_key", async () => {
    server = await startLoopbackServer([sse(lastResponse)]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-responses-"));
    const run = await runCli(["run", "--provider", "openai-responses", "--base-url", server.url, "--model", "gpt-5.1-codex-max", "--status-bar", "off", "Compute (12 + 7) × 3 × 10."], { cwd });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(server.requests[0]!.path).toBe("/responses");
    const [sessionFile] = await readdir(join(cwd, ".ctxkit", "sessions"));
    const sessionId = sessionFile!.replace(/\.jsonl$/, "");
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ model: "gpt-5.1-codex-max", store: false, include: ["reasoning.encrypted_content"], prompt_cache_key: sessionId });
  });

  it("sends --cache-retention, --reasoning-effort and --compact-threshold, and --defer-tools uses the API's own tool search", async () => {
    server = await startLoopbackServer([sse(lastResponse)]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-responses-settings-"));
    const run = await runCli(
      ["run", "--provider", "openai-responses", "--base-url", server.url, "--model", "gpt-5.1-codex-max", "--status-bar", "off",
        "--cache-retention", "24h", "--reasoning-effort", "high", "--compact-threshold", "200000", "--defer-tools", "all", "--cache-ttl", "1h", "Compute (12 + 7) × 3 × 10."],
      { cwd },
    );
    expect(run.code).toBe(0);
    const body = JSON.parse(server.requests[0]!.body) as { tools: Array<{ type: string; name?: string; defer_loading?: boolean }> } & Record<string, unknown>;
    expect(body).toMatchObject({ prompt_cache_retention: "24h", reasoning: { effort: "high" }, context_management: [{ type: "compaction", compact_threshold: 200_000 }] });
    // The workspace tools are deferred to the server's tool_search (the policies' own tools, notes and
    // the todo list, stay loaded); ctxkit's own tool_search / call_tool are not offered.
    const functions = body.tools.filter((tool) => tool.type === "function");
    const deferred = functions.filter((tool) => tool.defer_loading === true).map((tool) => tool.name);
    expect(deferred).toEqual(expect.arrayContaining(["edit_file", "glob", "grep", "list_dir", "read_file", "write_file"]));
    expect(body.tools).toContainEqual({ type: "tool_search" });
    expect(functions.map((tool) => tool.name)).not.toContain("tool_search");
    expect(functions.map((tool) => tool.name)).not.toContain("call_tool");
    // --cache-ttl is Anthropic's: one line says so instead of dropping it silently.
    expect(run.stderr).toContain("--cache-ttl 1h applies to --provider anthropic only; --provider openai-responses ignores it; its cache lifetime is --cache-retention.");
  });

  it("sends --cache-key to an OpenAI-compatible router as x-session-affinity, and refuses an unknown --cache-ttl", async () => {
    server = await startLoopbackServer([chatAnswer]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-affinity-"));
    const run = await runCli(["run", "--vendor", "vllm", "--base-url", `${server.url}/v1`, "--model", "m", "--cache-key", "team-42", "--status-bar", "off", "hi"], { cwd });
    expect(run.code).toBe(0);
    expect(server.requests[0]!.headers["x-session-affinity"]).toBe("team-42");
    expect(JSON.parse(server.requests[0]!.body)).not.toHaveProperty("prompt_cache_key");
    const refused = await runCli(["run", "--provider", "anthropic", "--api-key", "k", "--model", "claude-sonnet-4-5", "--cache-ttl", "2h", "hi"], { cwd });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/cache lifetime.*2h.*Use one of: 5m, 1h/);
  });
});
