import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../src/loop/create-agent.js";
import type { Provider } from "../src/providers/provider.js";
import { createOpenAICompatible } from "../src/providers/openai-compatible/index.js";
import { createOpenAIResponses } from "../src/providers/openai-responses/index.js";
import { createSessionStore, startSession } from "../src/session/index.js";
import { sseChunks, startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../src/testing/loopback-server.js";
import { runCli } from "./run-cli.js";

// The answer turn of a real recorded gpt-5.1-codex-max Responses stream (vercel/ai fixture; see
// src/providers/openai-responses/fixtures/README.md), its prompt scaled to the given tokens, none cached.
const recorded = (await readFile(new URL("../src/providers/openai-responses/fixtures/gpt-5.1-codex-max-reasoning-tool-loop.jsonl", import.meta.url), "utf8")).split("\n").filter((line) => line.trim() !== "");
const lastResponse = recorded.slice(recorded.map((line, index) => (line.startsWith('{"type":"response.created"') ? index : -1)).filter((index) => index >= 0).at(-1));
const responsesAnswer = (inputTokens: number): ScriptedHttpResponse => ({
  headers: { "content-type": "text/event-stream" },
  chunks: lastResponse.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line.replace(/"input_tokens":\d+/, `"input_tokens":${inputTokens}`)}\n\n`),
});

/** A Chat Completions stream (what vLLM, llama.cpp and Ollama send) with a prompt of `promptTokens`, none cached. */
const chatAnswer = (promptTokens: number): ScriptedHttpResponse => ({
  headers: { "content-type": "text/event-stream" },
  chunks: sseChunks(
    [
      { id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content: "Done." }, finish_reason: null }] },
      { id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
      { id: "c", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 0 } } },
    ],
    { done: true },
  ),
});

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Two runs of one session six minutes apart (a clock the test moves), the second reading nothing from the cache; the session file's path. */
async function sessionWithSixMinuteGap(provider: Provider): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "ctxkit-lifetime-"));
  let now = Date.parse("2026-03-01T10:00:00.000Z");
  const clock = () => new Date((now += 100));
  const store = createSessionStore({ directory });
  const { session } = await startSession(store, { system: "You answer briefly.", tools: [], provider, clock });
  const agent = createAgent({ provider, system: "You answer briefly.", tools: [], session, runtime: { clock } });
  await agent.run("Compute (12 + 7) × 3 × 10.").result();
  now += 6 * 60_000;
  await agent.run("And again.").result();
  await session.close();
  return join(directory, `${session.id}.jsonl`);
}

// inspect and view judge a ctxkit session by the lifetime each request was sent with, recorded in
// the session, not by a fixed five minutes.
describe("inspect judges a ctxkit session's gaps by the cache lifetime it recorded", () => {
  it("a 6-minute gap under --cache-retention 24h is no expiry", async () => {
    server = await startLoopbackServer([responsesAnswer(4300), responsesAnswer(4500)]);
    const provider = createOpenAIResponses({ model: "gpt-5.1-codex-max", apiKey: "k", baseURL: server.url, promptCacheRetention: "24h" });
    const file = await sessionWithSixMinuteGap(provider);
    const requests = (await readFile(file, "utf8")).split("\n").filter((line) => line.startsWith('{"type":"request"'));
    expect(requests.map((line) => (JSON.parse(line) as { cacheLifetimeMs?: number }).cacheLifetimeMs)).toEqual([86_400_000, 86_400_000]);
    const run = await runCli(["inspect", "--tokenizer", "estimate", file], { cwd: tmpdir() });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("cache expired");
    expect(run.stdout).toMatch(/the provider missed it for no visible reason \(same prefix, within the lifetime\): 4,300 tokens re-billed/);
  });

  it("a 6-minute gap against a local server (no lifetime) is no expiry", async () => {
    server = await startLoopbackServer([chatAnswer(4300), chatAnswer(4500)]);
    const provider = createOpenAICompatible({ vendor: "vllm", model: "qwen3-8b", baseURL: server.url });
    const file = await sessionWithSixMinuteGap(provider);
    const requests = (await readFile(file, "utf8")).split("\n").filter((line) => line.startsWith('{"type":"request"'));
    expect(requests.map((line) => (JSON.parse(line) as { cacheLifetimeMs?: number | null }).cacheLifetimeMs)).toEqual([null, null]);
    const run = await runCli(["inspect", "--tokenizer", "estimate", file], { cwd: tmpdir() });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("cache expired");
    expect(run.stdout).toMatch(/the provider missed it for no visible reason .*: 4,300 tokens re-billed/);
  });

  it("a 6-minute gap at a 5-minute lifetime is still named an expiry", async () => {
    server = await startLoopbackServer([responsesAnswer(4300), responsesAnswer(4500)]);
    const provider = createOpenAIResponses({ model: "gpt-5.1-codex-max", apiKey: "k", baseURL: server.url });
    const file = await sessionWithSixMinuteGap(provider);
    const run = await runCli(["inspect", "--tokenizer", "estimate", file], { cwd: tmpdir() });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/cache expired: 6m \d+s since the previous call, past the 5m lifetime: 4,300 tokens re-billed/);
  });
});
