import type {
  AssistantMessage,
  AssistantPart,
  MessageMeta,
  MessageOrigin,
  ModelRequest,
  ToolMessage,
  UserMessage,
} from "../../../types/index.js";
import type { ProviderEvent } from "../../provider.js";

export function meta(id: string, origin: MessageOrigin): MessageMeta {
  return { id, origin, createdAt: "2025-01-01T00:00:00.000Z" };
}

export function user(id: string, content: string, origin: MessageOrigin = "user"): UserMessage {
  return { role: "user", content, meta: meta(id, origin) };
}

export function assistant(id: string, content: AssistantPart[]): AssistantMessage {
  return { role: "assistant", content, meta: meta(id, "model"), stopReason: "tool_calls", rawStopReason: "tool_calls" };
}

export function toolResult(id: string, toolCallId: string, toolName: string, content: string, isError = false): ToolMessage {
  return { role: "tool", toolCallId, toolName, content, isError, meta: meta(id, "tool") };
}

export const weatherTool = {
  name: "get_weather",
  description: "Current weather for a city.",
  parameters: { type: "object", required: ["city"], properties: { city: { type: "string" } } },
};

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: { staticText: "You are a helpful agent." },
    tools: [],
    messages: [user("m1", "Hello")],
    cacheBreakpoints: [],
    settings: {},
    ...overrides,
  };
}

export async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The events without their timings, which differ between runs. */
export function withoutTimings(events: ProviderEvent[]): unknown[] {
  return events.map((event) => {
    if (event.type !== "done" && event.type !== "error") return event;
    if (event.usage === undefined) return event;
    const { timeToFirstTokenMs: _first, latencyMs: _latency, ...usage } = event.usage;
    return { ...event, usage };
  });
}

export const sseHeaders = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };
export const jsonHeaders = { "content-type": "application/json" };
