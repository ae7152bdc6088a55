import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../loop/create-agent.js";
import { collectRunEvents } from "../../loop/test-support/collect-run-events.js";
import { createTestClock, createTestIds } from "../../loop/test-support.js";
import { isMessage } from "../../session/validate-message.js";
import { buildUsageLedger, toLedgerCall } from "../../session/usage-ledger.js";
import { findModelPricing } from "../../tokens/pricing.js";
import { startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../../testing/loopback-server.js";
import type { AgentEvent } from "../../types/index.js";
import { createAnthropic } from "./index.js";

// Real recorded Anthropic streams with server-side context management, one event's data per line:
// vercel/ai packages/anthropic/src/__fixtures__/anthropic-compaction.1.chunks.txt (claude-opus-4-6,
// compact_20260112: a `compaction` block streamed as compaction_delta, then the answer; usage.iterations
// 60 385 + 612 input tokens) and anthropic-clear-tool-uses.1.chunks.txt (claude-haiku-4-5,
// clear_tool_uses_20250919 configured, `applied_edits: []`). Snapshot ed857f50; copied as recorded.
const recorded = (name: string) => readFileSync(new URL(`./test-support/${name}`, import.meta.url), "utf8").split("\n").filter((line) => line.trim() !== "");
const sse = (lines: string[]): ScriptedHttpResponse => ({
  headers: { "content-type": "text/event-stream" },
  chunks: lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`),
});

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("Anthropic server-side context management", () => {
  it("bills a recorded compaction's own summarising pass (usage.iterations) and sends the compaction block back", async () => {
    const lines = recorded("anthropic-compaction.chunks.txt");
    server = await startLoopbackServer([sse(lines)]);
    const provider = createAnthropic({
      model: "claude-opus-4-6",
      apiKey: "test",
      baseURL: server.url,
      contextManagement: { compact: { trigger: { type: "input_tokens", value: 50_000 }, pauseAfterCompaction: false, instructions: "Keep file paths verbatim." } },
    });
    const agent = createAgent({ provider, system: "You answer from the document.", tools: [], runtime: { clock: createTestClock(), createId: createTestIds() } });
    const events = await collectRunEvents(agent, "Summarise the testing section.");
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });

    const request = server.requests[0]!;
    expect(request.headers["anthropic-beta"]).toBe("compact-2026-01-12");
    expect(JSON.parse(request.body)).toMatchObject({
      context_management: { edits: [{ type: "compact_20260112", trigger: { type: "input_tokens", value: 50_000 }, pause_after_compaction: false, instructions: "Keep file paths verbatim." }] },
    });
    const usage = events.find((event) => event.type === "usage");
    // Top level says 612 in / 2819 out: the answer's pass only. The bill is both passes.
    expect(usage).toMatchObject({ usage: { inputTokens: 60_385 + 612, outputTokens: 522 + 2819, serverContext: { compactionInputTokens: 60_385, compactionOutputTokens: 522, edits: [{ type: "compaction" }] } } });
    if (usage?.type !== "usage") return;
    const ledger = buildUsageLedger([toLedgerCall(usage.usage)], findModelPricing("claude-opus-4-6"));
    expect(ledger.totals.promptTokens).toBe(60_997);
    expect(ledger.totals.cost?.total).toBeCloseTo((60_997 * 5 + 3341 * 25) / 1_000_000, 9);

    const assistant = agent.messages[1]!;
    if (assistant.role !== "assistant") throw new Error("expected the assistant message");
    expect(isMessage(assistant)).toBe(true);
    const summary = lines
      .map((line) => JSON.parse(line) as { type: string; delta?: { type: string; content?: string } })
      .filter((event) => event.delta?.type === "compaction_delta")
      .map((event) => event.delta!.content!)
      .join("");
    expect(summary.length).toBeGreaterThan(100);
    const block = JSON.stringify({ type: "compaction", content: summary });
    expect(assistant.content[0]).toEqual({ type: "provider_block", provider: "anthropic", block });
    const next = provider.serialize({ system: { staticText: "You answer from the document." }, tools: [], messages: [...agent.messages, { role: "user", content: "And the E2E part?", meta: { id: "u2", origin: "user", createdAt: "2026-01-01T00:00:00.000Z" } }], cacheBreakpoints: [], settings: {} });
    expect(next.body).toContain(`{"role":"assistant","content":[${block}`);
  });

  it("sends context editing with clear_thinking first and reports the edits the server applied", async () => {
    const lines = recorded("anthropic-clear-tool-uses.chunks.txt");
    // The recording applied no edit; the same stream with the applied_edits of Anthropic's documented example.
    const applied = lines.map((line) =>
      line.startsWith('{"type":"message_delta"') ? line.replace('"applied_edits":[]', '"applied_edits":[{"type":"clear_tool_uses_20250919","cleared_tool_uses":8,"cleared_input_tokens":50000}]') : line,
    );
    expect(applied.join("\n")).toContain("cleared_input_tokens");
    server = await startLoopbackServer([sse(lines), sse(applied)]);
    const provider = createAnthropic({
      model: "claude-haiku-4-5",
      apiKey: "test",
      baseURL: server.url,
      thinking: { budgetTokens: 1024 },
      contextManagement: {
        clearToolUses: { trigger: { type: "input_tokens", value: 30_000 }, keep: { type: "tool_uses", value: 3 }, clearAtLeast: { type: "input_tokens", value: 5000 }, excludeTools: ["web_search"], clearToolInputs: true },
        clearThinking: { keep: { type: "thinking_turns", value: 1 } },
      },
    });
    const agent = createAgent({ provider, system: "s", tools: [], runtime: { clock: createTestClock(), createId: createTestIds() } });
    const first = await collectRunEvents(agent, "one");
    const second = await collectRunEvents(agent, "two");
    expect(server.requests[0]!.headers["anthropic-beta"]).toBe("context-management-2025-06-27");
    expect((JSON.parse(server.requests[0]!.body) as { context_management: unknown }).context_management).toEqual({
      edits: [
        { type: "clear_thinking_20251015", keep: { type: "thinking_turns", value: 1 } },
        { type: "clear_tool_uses_20250919", trigger: { type: "input_tokens", value: 30_000 }, keep: { type: "tool_uses", value: 3 }, clear_at_least: { type: "input_tokens", value: 5000 }, exclude_tools: ["web_search"], clear_tool_inputs: true },
      ],
    });
    const usageOf = (events: AgentEvent[]) => events.find((event) => event.type === "usage");
    expect(usageOf(first)).not.toHaveProperty("usage.serverContext");
    expect(usageOf(second)).toMatchObject({ usage: { inputTokens: 859, serverContext: { compactionInputTokens: 0, edits: [{ type: "clear_tool_uses_20250919", clearedInputTokens: 50_000 }] } } });
  });

  it("refuses invalid edits before any I/O", () => {
    expect(() => createAnthropic({ model: "m", apiKey: "k", contextManagement: { compact: { trigger: { type: "input_tokens", value: 1000 } } } })).toThrow(/at least 50000/);
    expect(() => createAnthropic({ model: "m", apiKey: "k", contextManagement: { clearToolUses: { keep: { type: "tool_uses", value: -1 } } } })).toThrow(/whole number/);
  });
});
