import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { createAgent } from "../loop/index.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { defineTool } from "../tools/tool.js";
import { ProviderError } from "../types/index.js";
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
});
