import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createResumeAfterCompaction } from "../../context/server-compaction/resume-after-compaction.js";
import { createServerCompactionPolicy } from "../../context/server-compaction/server-compaction-policy.js";
import { createAgent } from "../../loop/create-agent.js";
import { createTestClock, createTestIds } from "../../loop/test-support.js";
import { buildUsageLedger, toLedgerCall } from "../../session/usage-ledger.js";
import { findModelPricing } from "../../tokens/pricing.js";
import { startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../../testing/loopback-server.js";
import type { AgentEvent, Usage } from "../../types/index.js";
import { createScriptedProvider } from "../scripted/index.js";
import { createAnthropic, type AnthropicSettings } from "./index.js";

// vercel/ai's recorded compaction stream (packages/anthropic/src/__fixtures__/anthropic-compaction.1.chunks.txt,
// claude-opus-4-6, see server-context-management.test.ts): a `compaction` block sent as one
// compaction_delta, then the answer; usage.iterations bills the summarising pass (60 385 in, 522 out)
// beside the answer's (612 in, 2 819 out). The other responses are cut from it: a plain answer is the
// recording's answer block alone (re-indexed to 0, no iterations), and a paused response is the
// recording up to the compaction block's stop with `stop_reason: "compaction"`, billing only the
// compaction pass (the shape of the compaction guide's `pause_after_compaction` response).
const lines = readFileSync(new URL("./test-support/anthropic-compaction.chunks.txt", import.meta.url), "utf8").split("\n").filter((line) => line.trim() !== "");
const sse = (events: string[]): ScriptedHttpResponse => ({
  headers: { "content-type": "text/event-stream" },
  chunks: events.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`),
});
const blockStop = lines.indexOf('{"type":"content_block_stop","index":0}');
const messageDelta = lines.find((line) => line.startsWith('{"type":"message_delta"'))!;
const compactionPass = JSON.stringify((JSON.parse(messageDelta) as { usage: { iterations: unknown[] } }).usage.iterations[0]);
const recorded = sse(lines);
const answerOnly = sse([
  lines[0]!.replace('"input_tokens":60385', '"input_tokens":58000'),
  ...lines.slice(blockStop + 1, -2).map((line) => line.replace('"index":1', '"index":0')),
  messageDelta.replace('"input_tokens":612', '"input_tokens":58000').replace(/"iterations":\[.*\]\}/, '"iterations":[]}'),
  '{"type":"message_stop"}',
]);
const paused = sse([
  ...lines.slice(0, blockStop + 1),
  messageDelta
    .replace('"stop_reason":"end_turn"', '"stop_reason":"compaction"')
    .replace('"input_tokens":612', '"input_tokens":0')
    .replace('"output_tokens":2819', '"output_tokens":0')
    .replace(/"iterations":\[.*\]\}/, `"iterations":[${compactionPass}]}`),
  '{"type":"message_stop"}',
]);
const summary = lines
  .map((line) => JSON.parse(line) as { delta?: { type: string; content?: string } })
  .filter((event) => event.delta?.type === "compaction_delta")
  .map((event) => event.delta!.content!)
  .join("");
const block = JSON.stringify({ type: "compaction", content: summary });

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(handle: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of handle) events.push(event);
  return events;
}

function agentOn(url: string, settings: Partial<AnthropicSettings> = {}) {
  const provider = createAnthropic({ model: "claude-opus-4-6", apiKey: "test", baseURL: url, ...settings });
  // strict: an undeclared prefix break would fail the call.
  return createAgent({
    provider,
    system: "You answer from the document.",
    tools: [],
    context: [createServerCompactionPolicy(), createResumeAfterCompaction()],
    prefixGuard: { strict: true },
    runtime: { clock: createTestClock(), createId: createTestIds() },
  });
}

const usages = (events: AgentEvent[]): Usage[] => events.flatMap((event) => (event.type === "usage" ? [event.usage] : []));

describe("Anthropic compaction on request (run(input, { compact }))", () => {
  it("sends one request with compact_20260112 at the API's lowest trigger, bills usage.iterations, and sends the block back byte-exact as a declared break", async () => {
    server = await startLoopbackServer([answerOnly, recorded, answerOnly]);
    const agent = agentOn(server.url);
    await run(agent.run("Summarise the testing section."));
    const compacted = await run(agent.run("Now the E2E part.", { compact: { instructions: "Keep file paths verbatim." } }));
    await run(agent.run("And the unit tests?"));

    const [first, second, third] = server.requests;
    // Only the call that asked carries the edit and its beta; the provider compacts nothing by itself.
    expect(first!.headers["anthropic-beta"]).toBeUndefined();
    expect(JSON.parse(first!.body)).not.toHaveProperty("context_management");
    expect(second!.headers["anthropic-beta"]).toBe("compact-2026-01-12");
    expect(JSON.parse(second!.body)).toMatchObject({
      context_management: { edits: [{ type: "compact_20260112", trigger: { type: "input_tokens", value: 50_000 }, instructions: "Keep file paths verbatim." }] },
    });
    expect(third!.headers["anthropic-beta"]).toBeUndefined();
    expect(JSON.parse(third!.body)).not.toHaveProperty("context_management");

    // The ledger bills both passes of the compacting call: the top level says only 612 in / 2 819 out.
    const [usage] = usages(compacted);
    expect(usage).toMatchObject({ inputTokens: 60_385 + 612, outputTokens: 522 + 2819, serverContext: { compactionInputTokens: 60_385, compactionOutputTokens: 522, edits: [{ type: "compaction" }] } });
    const ledger = buildUsageLedger([toLedgerCall(usage!)], findModelPricing("claude-opus-4-6"));
    expect(ledger.totals.cost?.total).toBeCloseTo((60_997 * 5 + 3341 * 25) / 1_000_000, 9);
    expect(compacted.some((event) => event.type === "warning")).toBe(false);

    // The next call starts at the compaction (what the server reads anyway), the block in its recorded bytes.
    const sent = JSON.parse(third!.body) as { messages: Array<{ role: string; content: unknown[] }> };
    expect(sent.messages.map((message) => message.role)).toEqual(["assistant", "user"]);
    expect(third!.body).toContain(`"messages":[{"role":"assistant","content":[${block},`);
    const events = await run(agent.run("Anything else?"));
    expect(events.some((event) => event.type === "error")).toBe(false);
  });

  it("names the dropped messages as a declared break, not an undeclared one", async () => {
    server = await startLoopbackServer([answerOnly, recorded, answerOnly]);
    const agent = agentOn(server.url);
    await run(agent.run("Summarise the testing section."));
    await run(agent.run("Now the E2E part.", { compact: true }));
    const after = await run(agent.run("And the unit tests?"));
    expect(after.find((event) => event.type === "context_edit")).toMatchObject({ kind: "replace", start: 0, end: 3 });
    expect(after.find((event) => event.type === "cache_break")).toMatchObject({ declared: true, reason: expect.stringContaining("server-side compaction") });
    expect(after.some((event) => event.type === "warning" && event.code === "undeclared_cache_break")).toBe(false);
  });

  it("with pause_after_compaction, the loop goes on with the paused turn from the compaction block", async () => {
    server = await startLoopbackServer([answerOnly, paused, answerOnly]);
    const agent = agentOn(server.url, { contextManagement: { compact: { pauseAfterCompaction: true } } });
    await run(agent.run("Summarise the testing section."));
    const events = await run(agent.run("Now the E2E part.", { compact: true }));
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer", iterations: 2 });
    expect(JSON.parse(server.requests[1]!.body)).toMatchObject({ context_management: { edits: [{ type: "compact_20260112", trigger: { type: "input_tokens", value: 50_000 }, pause_after_compaction: true }] } });
    // The continuation: the session's own setting again (no forced trigger), from the paused turn on.
    const continued = JSON.parse(server.requests[2]!.body) as { context_management: { edits: Array<Record<string, unknown>> }; messages: Array<{ role: string }> };
    expect(continued.context_management.edits).toEqual([{ type: "compact_20260112", pause_after_compaction: true }]);
    expect(server.requests[2]!.body).toContain(`"messages":[{"role":"assistant","content":[${block}`);
    expect(continued.messages).toHaveLength(1);
    // The paused call billed the summarising pass alone.
    expect(usages(events)[0]).toMatchObject({ inputTokens: 60_385, outputTokens: 522, serverContext: { edits: [{ type: "compaction" }] } });
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", rawStopReason: "end_turn" });
  });

  it("warns when the server did not compact (a prompt under the 50 000-token minimum)", async () => {
    server = await startLoopbackServer([answerOnly]);
    const agent = agentOn(server.url);
    const events = await run(agent.run("Summarise the testing section.", { compact: true }));
    expect(events.find((event) => event.type === "warning")).toMatchObject({ code: "server_compaction_skipped", message: expect.stringContaining("58,000") });
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
  });

  it("refuses to compact on request with a provider that cannot", async () => {
    const agent = createAgent({ provider: createScriptedProvider({ turns: [] }), system: "s", tools: [] });
    await expect(agent.run("hi", { compact: true }).result()).rejects.toMatchObject({ code: "server_compaction_unsupported" });
  });
});
