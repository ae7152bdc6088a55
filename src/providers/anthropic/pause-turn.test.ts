import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { ContextPolicy } from "../../context/context-policy.js";
import { createAgent } from "../../loop/create-agent.js";
import { collectRunEvents } from "../../loop/test-support/collect-run-events.js";
import { createTestClock, createTestIds } from "../../loop/test-support.js";
import { isMessage } from "../../session/validate-message.js";
import { startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../../testing/loopback-server.js";
import type { AgentEvent, AssistantMessage } from "../../types/index.js";
import { createAnthropic } from "./index.js";

// Two real recorded Anthropic streams, one event's data per line, copied as recorded from vercel/ai
// packages/anthropic/src/__fixtures__/:
// - anthropic-web-fetch-tool-20260209.1.chunks.txt (commit 3b5bb4c0; claude-sonnet-4-6): a code
//   execution server tool that calls web_fetch, its result, the code's result, then the answer text;
// - anthropic-clear-thinking.1.chunks.txt (commit ac18f730; claude-sonnet-4-5): a signed thinking block.
// No recording of a pause_turn is public, so the turn is cut where the API cuts one, after a block:
// the paused response is the thinking block then the first three server blocks, with the recording's
// own message_delta saying `stop_reason: "pause_turn"`; the continued response is the code's result
// block, paused again; the last is the answer text with the recording's message_delta as it is.
const read = (name: string) => readFileSync(new URL(`./test-support/${name}`, import.meta.url), "utf8").split("\n").filter((line) => line.trim() !== "");
const web = read("anthropic-web-fetch-code-execution.chunks.txt");
const thinking = read("anthropic-thinking.chunks.txt");

const blockIndexPattern = /^(\{"type":"content_block_(?:start|delta|stop)","index":)(\d+)/;
/** The lines of recorded block `index` (start, deltas, stop), renumbered to `to`. */
const block = (lines: string[], index: number, to: number) =>
  lines.filter((line) => blockIndexPattern.exec(line)?.[2] === String(index)).map((line) => line.replace(blockIndexPattern, `$1${to}`));
const messageStart = web[0]!;
const recordedDelta = web.find((line) => line.startsWith('{"type":"message_delta"'))!;
const pauseDelta = recordedDelta.replace('"stop_reason":"end_turn"', '"stop_reason":"pause_turn"');
const sse = (events: string[]): ScriptedHttpResponse => ({
  headers: { "content-type": "text/event-stream" },
  chunks: events.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`),
});
const paused = sse([messageStart, ...block(thinking, 0, 0), ...block(web, 0, 1), ...block(web, 1, 2), ...block(web, 2, 3), pauseDelta, '{"type":"message_stop"}']);
const continued = sse([messageStart, ...block(web, 3, 0), pauseDelta, '{"type":"message_stop"}']);
const answer = sse([messageStart, ...block(web, 4, 0), recordedDelta, '{"type":"message_stop"}']);

/** A recorded block as the API sent it in its content_block_start, byte for byte. */
const recordedBlock = (lines: string[], index: number) => block(lines, index, index)[0]!.match(/"content_block":(\{.*\})\}$/)![1]!;
const thinkingBlock = JSON.stringify({
  type: "thinking",
  thinking: block(thinking, 0, 0).flatMap((line) => { const delta = (JSON.parse(line) as { delta?: { thinking?: string } }).delta; return delta?.thinking ?? []; }).join(""),
  signature: (JSON.parse(thinking.find((line) => line.includes('"signature_delta"'))!) as { delta: { signature: string } }).delta.signature,
});
// The code execution call streams its input as input_json_delta fragments; it goes back with that input.
const codeInput = block(web, 0, 0).flatMap((line) => { const delta = (JSON.parse(line) as { delta?: { partial_json?: string } }).delta; return delta?.partial_json ?? []; }).join("");
const codeCall = JSON.stringify({ ...(JSON.parse(recordedBlock(web, 0)) as object), input: JSON.parse(codeInput) as unknown });
const pausedBlocks = [thinkingBlock, codeCall, recordedBlock(web, 1), recordedBlock(web, 2)];

// A tail on every call (as the status bar sends): a request that goes on with a paused turn must not carry it.
const tailEveryCall: ContextPolicy = { name: "test-tail", inherit: "share", tail: () => "[status] call in progress" };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const createPausingAgent = (url: string, maxIterations?: number) =>
  createAgent({
    provider: createAnthropic({ model: "claude-sonnet-4-6", apiKey: "test", baseURL: url, maxOutputTokens: 1024 }),
    system: "You fetch pages with code.",
    tools: [],
    context: [tailEveryCall],
    prefixGuard: { strict: true },
    runtime: { clock: createTestClock(), createId: createTestIds(), ...(maxIterations === undefined ? {} : { maxIterations }) },
  });

describe("Anthropic pause_turn", () => {
  it("goes on with a paused server-tool turn, sending it back unchanged, until the model answers", async () => {
    server = await startLoopbackServer([paused, continued, answer]);
    const agent = createPausingAgent(server.url);
    const events = await collectRunEvents(agent, "What does example.com say?");

    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer", iterations: 3 });
    const finalText = (events.at(-1) as Extract<AgentEvent, { type: "run_end" }>).finalText;
    expect(finalText).toBe("The page at **example.com** is a simple placeholder page explaining that the domain is reserved for use in illustrative documentation examples and does not require prior permission to reference.");
    expect(events.filter((event) => event.type === "warning" || event.type === "cache_break")).toEqual([]);
    expect(server.requests).toHaveLength(3);

    // The unified reason says the turn goes on; the provider's own is kept; the session format takes both.
    const [, first, second, last] = agent.messages as [unknown, AssistantMessage, AssistantMessage, AssistantMessage];
    expect(first).toMatchObject({ role: "assistant", stopReason: "paused", rawStopReason: "pause_turn" });
    expect(first.content.map((part) => part.type)).toEqual(["thinking", "provider_block", "provider_block", "provider_block"]);
    expect(second).toMatchObject({ role: "assistant", stopReason: "paused", rawStopReason: "pause_turn" });
    expect(last).toMatchObject({ role: "assistant", stopReason: "stop", rawStopReason: "end_turn" });
    expect(isMessage(first)).toBe(true);

    // The first request ends with the user's turn and the tail; the next ones end with the paused
    // turn, byte for byte as streamed (the signed thinking, the server calls and their results), and
    // no tail after it: the API continues an assistant message that comes last.
    const bodies = server.requests.map((request) => JSON.parse(request.body) as { messages: Array<{ role: string; content: Array<{ text?: string }> }> });
    expect(bodies[0]!.messages.at(-1)).toMatchObject({ role: "user", content: [{ text: "What does example.com say?" }, { text: "[status] call in progress" }] });
    expect(bodies[1]!.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(server.requests[1]!.body).toContain(`{"role":"assistant","content":[${pausedBlocks.join(",")}]}]`);
    // Both paused responses go back as one assistant turn (the API joins consecutive assistant turns).
    expect(bodies[2]!.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(server.requests[2]!.body).toContain(`{"role":"assistant","content":[${[...pausedBlocks, recordedBlock(web, 3)].join(",")}]}]`);
  });

  it("stops a server that pauses for ever at maxIterations, saying the answer is unfinished", async () => {
    // The loopback server repeats its last response: every call pauses.
    server = await startLoopbackServer([paused]);
    const agent = createPausingAgent(server.url, 3);
    const events = await collectRunEvents(agent, "What does example.com say?");

    expect(server.requests).toHaveLength(3);
    expect(events).toContainEqual(expect.objectContaining({ type: "warning", code: "max_iterations", message: expect.stringContaining("still pausing the model's turn (pause_turn)") }));
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "max_iterations", iterations: 3, finalText: "", error: { code: "max_iterations" } });
  });
});
