import { afterEach, describe, expect, it } from "vitest";
import { createResumeAfterCompaction } from "../../context/server-compaction/resume-after-compaction.js";
import { createServerCompactionPolicy } from "../../context/server-compaction/server-compaction-policy.js";
import { createAgent } from "../../loop/create-agent.js";
import { createTestClock, createTestIds } from "../../loop/test-support.js";
import { buildUsageLedger, toLedgerCall } from "../../session/usage-ledger.js";
import { findModelPricing } from "../../tokens/pricing.js";
import { startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
import { answerOnly, answerWithPrompt, compactionBlock, paused, recordedCompaction } from "./test-support/compaction-streams.js";
import type { AgentEvent, Usage } from "../../types/index.js";
import { createScriptedProvider } from "../scripted/index.js";
import { createAnthropic, type AnthropicSettings } from "./index.js";

// Real recorded compaction stream and the responses cut from it: see test-support/compaction-streams.ts.
const recorded = recordedCompaction;
const block = compactionBlock;

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

  it("warns that a prompt under the provider's lowest compaction trigger was not compacted", async () => {
    server = await startLoopbackServer([answerWithPrompt(12_000)]);
    const agent = agentOn(server.url);
    const events = await run(agent.run("Summarise the testing section.", { compact: true }));
    expect(events.find((event) => event.type === "warning")).toMatchObject({
      code: "server_compaction_skipped",
      message: "The server was asked to compact but did not: this prompt had 12,000 input tokens, under the provider's lowest compaction trigger of 50,000. The call was answered as usual.",
    });
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
  });

  it("warns that the server reported no compaction for a prompt over the trigger", async () => {
    // 58 000 input tokens, past the 50 000 minimum, and the answer reports no compaction.
    server = await startLoopbackServer([answerOnly]);
    const agent = agentOn(server.url);
    const events = await run(agent.run("Summarise the testing section.", { compact: true }));
    expect(events.find((event) => event.type === "warning")).toMatchObject({
      code: "server_compaction_skipped",
      message: "The server was asked to compact but reported no compaction, although the prompt (58,000 input tokens) was over the provider's lowest compaction trigger of 50,000. The call was answered as usual.",
    });
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
  });

  it("declares the lowest prompt it compacts on the provider", () => {
    expect(createAnthropic({ model: "claude-opus-4-6", apiKey: "test" })).toMatchObject({ compactsOnRequest: true, compactionMinimumTokens: 50_000 });
  });

  it("refuses to compact on request with a provider that cannot", async () => {
    const agent = createAgent({ provider: createScriptedProvider({ turns: [] }), system: "s", tools: [] });
    await expect(agent.run("hi", { compact: true }).result()).rejects.toMatchObject({ code: "server_compaction_unsupported" });
  });
});
