import type {
  AssistantMessage,
  AssistantPart,
  ModelRequest,
  ToolMessage,
  UserMessage,
} from "../../../types/index.js";
import type { ScriptedHttpResponse } from "../../../testing/loopback-server.js";

let counter = 0;
const meta = (origin: "user" | "model" | "tool" | "harness") => ({ id: `m${++counter}`, origin, createdAt: "2025-01-01T00:00:00.000Z" });

export const user = (content: string): UserMessage => ({ role: "user", content, meta: meta("user") });
export const status = (content: string): UserMessage => ({ role: "user", content, meta: meta("harness") });
export const assistant = (...content: AssistantPart[]): AssistantMessage => ({ role: "assistant", content, meta: meta("model") });
export const toolResult = (toolCallId: string, content: string, isError = false): ToolMessage => ({
  role: "tool",
  toolCallId,
  toolName: "read_file",
  content,
  isError,
  meta: meta("tool"),
});
export const text = (value: string): AssistantPart => ({ type: "text", text: value });
export const call = (id: string, argumentsText: string, name = "read_file"): AssistantPart => ({
  type: "tool_call",
  id,
  name,
  argumentsText,
  arguments: undefined,
});

export const readFileTool = {
  name: "read_file",
  description: "Read a file.",
  parameters: { type: "object", required: ["path"], properties: { path: { type: "string" } } },
};

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: { staticText: "You are terse." },
    tools: [],
    messages: [user("hi")],
    cacheBreakpoints: [],
    settings: {},
    ...overrides,
  };
}

/** Named SSE events exactly as Anthropic streams them: `event: <type>` then `data: <json>`. */
export function anthropicSse(events: Array<Record<string, unknown> & { type: string }>): ScriptedHttpResponse {
  return {
    status: 200,
    headers: { "content-type": "text/event-stream" },
    chunks: events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
  };
}

export function messageStart(usage: Record<string, number> = { input_tokens: 10, output_tokens: 1 }) {
  return {
    type: "message_start",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-test",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  };
}

export const blockStart = (index: number, contentBlock: Record<string, unknown>) => ({ type: "content_block_start", index, content_block: contentBlock });
export const blockDelta = (index: number, delta: Record<string, unknown>) => ({ type: "content_block_delta", index, delta });
export const blockStop = (index: number) => ({ type: "content_block_stop", index });
export const messageDelta = (stopReason: string, outputTokens: number) => ({
  type: "message_delta",
  delta: { stop_reason: stopReason, stop_sequence: null },
  usage: { output_tokens: outputTokens },
});
export const messageStop = () => ({ type: "message_stop" });
export const ping = () => ({ type: "ping" });
