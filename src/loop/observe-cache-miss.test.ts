import { afterEach, describe, expect, it } from "vitest";
import { createAnthropic } from "../providers/anthropic/index.js";
import { startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../testing/loopback-server.js";
import type { AgentEvent } from "../types/index.js";
import { createAgent } from "./create-agent.js";
import { createTestIds } from "./test-support.js";

/** One Anthropic Messages stream (the real wire format) answering `text` with the given usage. */
function answer(text: string, usage: { input: number; read: number; write: number }): ScriptedHttpResponse {
  const events = [
    { type: "message_start", message: { id: "msg", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input, cache_read_input_tokens: usage.read, cache_creation_input_tokens: usage.write, output_tokens: 1 } } },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: "message_stop" },
  ];
  return { headers: { "content-type": "text/event-stream" }, chunks: events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`) };
}

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Two chat turns, the second `pauseMs` after the first, where the provider served nothing from its cache. */
async function pausedSession(cacheTtl: "5m" | "1h", pauseMs: number): Promise<AgentEvent[]> {
  server = await startLoopbackServer([answer("First.", { input: 20, read: 0, write: 12_000 }), answer("Second.", { input: 12_040, read: 0, write: 0 })]);
  let now = Date.parse("2026-03-01T10:00:00.000Z");
  const agent = createAgent({
    provider: createAnthropic({ model: "claude-sonnet-4-5", apiKey: "k", baseURL: server.url, cacheTtl }),
    system: "You are terse.",
    tools: [],
    runtime: { clock: () => new Date((now += 1000)), createId: createTestIds() },
  });
  const events: AgentEvent[] = [];
  for await (const event of agent.run("one")) events.push(event);
  now += pauseMs;
  for await (const event of agent.run("two")) events.push(event);
  return events;
}

describe("cache misses in a run's events", () => {
  it("names an expired cache when the pause exceeds the 5-minute lifetime", async () => {
    const events = await pausedSession("5m", 6 * 60_000);
    const misses = events.filter((event) => event.type === "cache_miss");
    expect(misses).toHaveLength(1);
    expect(misses[0]).toMatchObject({ type: "cache_miss", missedTokens: 12_020, cause: { kind: "cache_expired", lifetimeMs: 5 * 60_000 } });
    expect(misses[0]!.type === "cache_miss" && misses[0]!.summary).toMatch(/^cache expired: 6m \d+s since the previous call, past the 5m lifetime/);
  });

  it("calls the same miss the provider's own under a 1-hour lifetime", async () => {
    const events = await pausedSession("1h", 6 * 60_000);
    expect(events.find((event) => event.type === "cache_miss")).toMatchObject({ cause: { kind: "provider_miss" } });
  });
});
