import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../src/testing/loopback-server.js";
import { runCli } from "./run-cli.js";

/** One Anthropic Messages stream (the real wire format) with the given content block and cache usage. */
function anthropicAnswer(block: Record<string, unknown>, delta: Record<string, unknown>, stopReason: string, usage: { input: number; read: number; write: number }): ScriptedHttpResponse {
  const events = [
    { type: "message_start", message: { id: "msg", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input, cache_read_input_tokens: usage.read, cache_creation_input_tokens: usage.write, output_tokens: 1 } } },
    { type: "content_block_start", index: 0, content_block: block },
    { type: "content_block_delta", index: 0, delta },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: "message_stop" },
  ];
  return { headers: { "content-type": "text/event-stream" }, chunks: events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`) };
}

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A run of two calls (a tool call, then the answer) where the second call got nothing from the cache. */
function missedCalls() {
  return [
    anthropicAnswer({ type: "tool_use", id: "toolu_1", name: "list_dir", input: {} }, { type: "input_json_delta", partial_json: "{}" }, "tool_use", { input: 20, read: 0, write: 12_000 }),
    anthropicAnswer({ type: "text", text: "" }, { type: "text_delta", text: "Done." }, "end_turn", { input: 12_100, read: 0, write: 0 }),
  ];
}

async function missedRun(extra: string[]) {
  server = await startLoopbackServer(missedCalls());
  const cwd = await mkdtemp(join(tmpdir(), "ctxkit-cache-miss-"));
  return runCli(["run", "--provider", "anthropic", "--api-key", "k", "--base-url", server.url, "--model", "claude-sonnet-4-5", "--status-bar", "off", ...extra, "List the files."], { cwd });
}

describe("cache misses in ctxkit run", () => {
  it("explains a call that missed its reusable prefix in one line on stderr, with the dollars re-billed", async () => {
    const run = await missedRun([]);
    expect(run.code).toBe(0);
    expect(server!.requests).toHaveLength(2);
    // 12,020 tokens the first call wrote to the cache, billed again at (3.00 − 0.30) $/M for claude-sonnet-4-5.
    const lines = run.stderr.split("\n").filter((line) => line.includes("cache miss:"));
    expect(lines).toEqual([expect.stringMatching(/cache miss: the provider missed it for no visible reason .*12,020 tokens re-billed \(\$0\.0325\)$/)]);
    expect(run.stdout).not.toContain("cache miss");
  });

  it("carries the dollars in the run's cache_miss event", async () => {
    const run = await missedRun(["--json"]);
    expect(run.code).toBe(0);
    const events = run.stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
    const miss = events.find((event) => event.type === "cache_miss");
    expect(miss).toMatchObject({ missedTokens: 12_020, cause: { kind: "provider_miss" } });
    expect(miss!.rebilledUsd).toBeCloseTo(0.032454, 6);
  });

  it("lists the misses with their causes and dollars in chat's /usage", async () => {
    server = await startLoopbackServer(missedCalls());
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-miss-"));
    const run = await runCli(["chat", "--provider", "anthropic", "--api-key", "k", "--base-url", server.url, "--model", "claude-sonnet-4-5", "--status-bar", "off", "--cache-ttl", "1h"], {
      cwd,
      input: ["List the files.", { line: "/usage", waitFor: "Done." }, { line: "/exit", waitFor: "cache misses" }],
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("prompt cache: lifetime 1h");
    expect(run.stdout).toContain("cache misses: 1, $0.0325 re-billed");
    expect(run.stdout).toMatch(/ {2}call 2: the provider missed it for no visible reason .*12,020 tokens re-billed \(\$0\.0325\)/);
  });
});
