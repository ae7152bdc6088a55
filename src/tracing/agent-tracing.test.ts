import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { createAgent } from "../loop/index.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { defineTool } from "../tools/tool.js";
import { emptyUsage, ProviderError, type AgentEvent } from "../types/index.js";
import { createAgentTracing, traceAgentRun } from "./index.js";

const lookup = defineTool({
  name: "lookup",
  description: "Looks a word up.",
  parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"], additionalProperties: false } as const,
  requiresConfirmation: true,
  execute: async ({ word }) => `${word}: found`,
});

function sdk() {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor({ exporter });
  const provider = new TracerProvider({ spanProcessors: [processor] });
  // The simple processor exports asynchronously: flush before reading what it got.
  return { tracer: provider.getTracer("test"), finished: async () => (await processor.forceFlush(), exporter.getFinishedSpans()) };
}

describe("traceAgentRun", () => {
  it("hands back the run's own events when the tracer records nothing (no SDK registered)", () => {
    const agent = createAgent({ provider: createScriptedProvider({ turns: ["hi"] }), system: "s" });
    const events = agent.run("hello");
    expect(traceAgentRun(events, { tracer: trace.getTracer("none") })).toBe(events);
  });

  it("records a declined confirmation, and a failed call as an error on its chat span and the run", async () => {
    const { finished, tracer } = sdk();
    const provider = createScriptedProvider({
      model: "m-1",
      turns: [{ toolCalls: [{ name: "lookup", arguments: { word: "fox" } }] }, { error: new ProviderError("provider_connection_error", "The server is down.") }],
    });
    const agent = createAgent({ provider, system: "s", tools: [lookup], confirmToolCall: async () => ({ approved: false, reason: "not now" }) });
    const seen = [];
    for await (const event of createAgentTracing({ tracer, captureMessageContent: false }).traceRun(agent.run("look up fox"), { agent: "tester" })) seen.push(event.type);
    expect(seen.at(-1)).toBe("run_end");
    const spans = await finished();
    expect(spans.map((span) => span.name)).toEqual(["chat m-1", "execute_tool lookup", "chat m-1", "invoke_agent tester"]);
    const tool = spans[1]!;
    expect(tool.attributes["ctxkit.tool.confirmation"]).toBe("declined");
    expect(tool.status.code).toBe(2);
    const failed = spans[2]!;
    expect(failed.status.code).toBe(2);
    expect(failed.attributes["error.type"]).toBe("provider_connection_error");
    expect(spans[3]!.attributes["ctxkit.stop_reason"]).toBe("error");
    expect(spans[3]!.attributes["error.type"]).toBe("provider_connection_error");
  });

  it("closes every span it opened when the consumer stops early", async () => {
    const { finished, tracer } = sdk();
    const provider = createScriptedProvider({ turns: [{ toolCalls: [{ name: "lookup", arguments: { word: "fox" } }] }, "done"] });
    const agent = createAgent({ provider, system: "s", tools: [lookup], confirmToolCall: async () => true });
    for await (const event of traceAgentRun(agent.run("go"), { tracer })) if (event.type === "turn_end") break;
    const names = (await finished()).map((span) => span.name);
    expect(names).toEqual(["chat scripted-model", "execute_tool lookup", "invoke_agent ctxkit"]);
  });

  it("reads the policy edits from what the edits inserted (meta.derived), never from their reason text", async () => {
    const { finished, tracer } = sdk();
    const meta = (id: string) => ({ id, origin: "model" as const, createdAt: "2026-01-01T00:00:00.000Z" });
    const usage = { ...emptyUsage(), inputTokens: 900, cacheWriteTokens: 700, outputTokens: 50, reasoningTokens: 30 };
    const call = (turn: number, edits: AgentEvent[], request: Partial<Extract<AgentEvent, { type: "request" }>>, response?: { id?: string; model?: string }): AgentEvent[] => [
      { type: "turn_start", turn },
      ...edits,
      { type: "request", turn, messageCount: 3, hasTail: request.tailPolicies !== undefined, provider: "openai-compatible:kimi", model: "kimi-k2", baseURL: "https://api.moonshot.ai/v1", ...request },
      { type: "usage", turn, usage },
      { type: "turn_end", turn, message: { role: "assistant", content: [{ type: "text", text: "ok" }], meta: meta(`a${turn}`), stopReason: "stop" }, ...(response ? { response } : {}) },
    ];
    async function* events(): AsyncGenerator<AgentEvent> {
      yield { type: "run_start", runId: "r1", sessionId: "s1", input: "go" };
      // Archived turns and cleared results in one edit, whose reason names neither.
      yield* call(0, [{ type: "context_edit", turn: 0, kind: "replace", start: 1, end: 4, inserted: 2, reason: "made room", derived: ["archive", "stub"] }], { tailPolicies: ["notes", "status-bar"] }, { id: "resp-1", model: "kimi-k2-0905" });
      // A summary whose reason says "cleared": a compaction, not a clearing; the status appended to the trajectory.
      yield* call(1, [
        { type: "context_edit", turn: 1, kind: "replace", start: 1, end: 3, inserted: 1, reason: "cleared the way with a summary", derived: ["summary"] },
        { type: "context_edit", turn: 1, kind: "append", start: 3, end: 3, inserted: 1, derived: ["status"] },
      ], { tailPolicies: ["notes"] });
      // Another policy's tail is not the status bar.
      yield* call(2, [{ type: "context_edit", turn: 2, kind: "append", start: 4, end: 4, inserted: 1, derived: ["note"] }], { tailPolicies: ["notes"] });
      yield { type: "run_end", stopReason: "final_answer", sessionId: "s1", usage, iterations: 3, finalText: "ok" };
    }
    for await (const _event of createAgentTracing({ tracer, captureMessageContent: true }).traceRun(events())) void _event;
    const spans = await finished();
    const chats = spans.filter((span) => span.name === "chat kimi-k2");
    const policy = (index: number) => Object.fromEntries(Object.entries(chats[index]!.attributes).filter(([key]) => key.startsWith("ctxkit.policy.") && key !== "ctxkit.policy.edits"));
    expect(policy(0)).toEqual({ "ctxkit.policy.compaction": true, "ctxkit.policy.clearing": true, "ctxkit.policy.status_bar_mode": "replace" });
    expect(policy(1)).toEqual({ "ctxkit.policy.compaction": true, "ctxkit.policy.clearing": false, "ctxkit.policy.status_bar_mode": "append" });
    expect(policy(2)).toEqual({ "ctxkit.policy.compaction": false, "ctxkit.policy.clearing": false, "ctxkit.policy.status_bar_mode": "off" });
    expect(chats[0]!.attributes).toMatchObject({
      "gen_ai.provider.name": "moonshot_ai",
      "gen_ai.conversation.id": "s1",
      "gen_ai.response.model": "kimi-k2-0905",
      "gen_ai.response.id": "resp-1",
      "server.address": "api.moonshot.ai",
      "server.port": 443,
      "gen_ai.usage.cache_creation.input_tokens": 700,
      "gen_ai.usage.reasoning.output_tokens": 30,
    });
    // A response without a reported model has no gen_ai.response.model (never the requested one in its place).
    expect(chats[1]!.attributes["gen_ai.response.model"]).toBeUndefined();
    // The library option alone opts in to contents (no environment variable).
    expect(JSON.parse(String(chats[0]!.attributes["gen_ai.output.messages"]))).toEqual([{ role: "assistant", parts: [{ type: "text", content: "ok" }], finish_reason: "stop" }]);
    const run = spans.find((span) => span.name === "invoke_agent ctxkit")!;
    expect(run.attributes).toMatchObject({ "gen_ai.provider.name": "moonshot_ai", "gen_ai.request.model": "kimi-k2" });
  });

  it("continues a run's trace from a traceparent, as a durable run resumed on another worker does", async () => {
    const { finished, tracer } = sdk();
    const tracing = createAgentTracing({ tracer, captureMessageContent: false });
    let traceparent: string | undefined;
    const first = createAgent({ provider: createScriptedProvider({ turns: ["one"] }), system: "s" });
    for await (const _event of tracing.traceRun(first.run("go"), { onTraceparent: (value) => (traceparent = value) })) void _event;
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const second = createAgent({ provider: createScriptedProvider({ turns: ["two"] }), system: "s" });
    for await (const _event of tracing.traceRun(second.run("go on"), { traceparent: traceparent! })) void _event;
    const runs = (await finished()).filter((span) => span.name === "invoke_agent ctxkit");
    expect(runs).toHaveLength(2);
    expect(runs[1]!.spanContext().traceId).toBe(runs[0]!.spanContext().traceId);
    expect(runs[1]!.parentSpanContext?.spanId).toBe(runs[0]!.spanContext().spanId);
    // A malformed traceparent starts a trace of its own rather than failing the run.
    const third = createAgent({ provider: createScriptedProvider({ turns: ["three"] }), system: "s" });
    for await (const _event of tracing.traceRun(third.run("again"), { traceparent: "00-zz-11-01" })) void _event;
    const all = (await finished()).filter((span) => span.name === "invoke_agent ctxkit");
    expect(all[2]!.spanContext().traceId).not.toBe(runs[0]!.spanContext().traceId);
  });
});
