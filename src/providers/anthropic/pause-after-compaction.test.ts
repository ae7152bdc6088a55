import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createResumeAfterCompaction } from "../../context/server-compaction/resume-after-compaction.js";
import { createAgent } from "../../loop/create-agent.js";
import { collectRunEvents } from "../../loop/test-support/collect-run-events.js";
import { createTestClock, createTestIds } from "../../loop/test-support.js";
import { startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../../testing/loopback-server.js";
import { createAnthropic } from "./index.js";

// vercel/ai's recorded compaction stream (anthropic-compaction.chunks.txt, see
// server-context-management.test.ts). With `pause_after_compaction: true` the API ends the response
// after the compaction block with `stop_reason: "compaction"`: the paused response here is the
// recording's events up to that block's stop, then the recording's own message_delta with that stop
// reason, then message_stop. The resumed response is the recording's answer block, re-indexed to 0.
const lines = readFileSync(new URL("./test-support/anthropic-compaction.chunks.txt", import.meta.url), "utf8").split("\n").filter((line) => line.trim() !== "");
const sse = (events: string[]): ScriptedHttpResponse => ({
  headers: { "content-type": "text/event-stream" },
  chunks: events.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`),
});
const blockStop = lines.indexOf('{"type":"content_block_stop","index":0}');
const messageDelta = lines.find((line) => line.startsWith('{"type":"message_delta"'))!;
const paused = [...lines.slice(0, blockStop + 1), messageDelta.replace('"stop_reason":"end_turn"', '"stop_reason":"compaction"'), '{"type":"message_stop"}'];
const resumed = [
  lines[0]!,
  ...lines.slice(blockStop + 1, -2).map((line) => line.replace('"index":1', '"index":0')),
  messageDelta.replace(/"iterations":\[[^\]]*\]/, '"iterations":[]'),
  '{"type":"message_stop"}',
];

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const provider = (url: string) =>
  createAnthropic({ model: "claude-opus-4-6", apiKey: "test", baseURL: url, contextManagement: { compact: { trigger: { type: "input_tokens", value: 50_000 }, pauseAfterCompaction: true } } });

describe("pause_after_compaction", () => {
  it("continues a turn paused after compaction, sending the compaction block back, instead of ending the run", async () => {
    server = await startLoopbackServer([sse(paused), sse(resumed)]);
    const agent = createAgent({ provider: provider(server.url), system: "You answer from the document.", tools: [], context: [createResumeAfterCompaction()], runtime: { clock: createTestClock(), createId: createTestIds() } });
    const events = await collectRunEvents(agent, "Summarise the testing section.");
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer", iterations: 2 });
    expect(server.requests).toHaveLength(2);
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ context_management: { edits: [{ type: "compact_20260112", pause_after_compaction: true }] } });

    const pausedMessage = agent.messages[1]!;
    if (pausedMessage.role !== "assistant") throw new Error("expected the paused assistant message");
    expect(pausedMessage.rawStopReason).toBe("compaction");
    const block = pausedMessage.content[0]!;
    if (block.type !== "provider_block") throw new Error("expected the compaction block");
    // The second request ends with the paused turn, its compaction block byte-exact.
    const second = server.requests[1]!.body;
    expect(second).toContain(`{"role":"assistant","content":[${block.block}`);
    const finalText = events.at(-1)?.type === "run_end" ? (events.at(-1) as { finalText: string }).finalText : "";
    expect(finalText.length).toBeGreaterThan(100);
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", rawStopReason: "end_turn" });
  });

  it("without the policy, the paused response ends the run (the loop names no server behaviour)", async () => {
    server = await startLoopbackServer([sse(paused), sse(resumed)]);
    const agent = createAgent({ provider: provider(server.url), system: "You answer from the document.", tools: [], runtime: { clock: createTestClock(), createId: createTestIds() } });
    const events = await collectRunEvents(agent, "Summarise the testing section.");
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer", iterations: 1 });
    expect(server.requests).toHaveLength(1);
  });
});
