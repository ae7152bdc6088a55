import type { Message, ModelRequest, UserMessage } from "../../types/index.js";

/** A small tool-call conversation in the internal model, shared by the template and counting tests. */
export function meta(id: string, origin: Message["meta"]["origin"] = "user"): Message["meta"] {
  return { id, origin, createdAt: "2025-05-01T09:00:00.000Z" };
}

export const weatherTool = {
  name: "get_weather",
  description: "Current weather for a city.",
  parameters: {
    type: "object",
    required: ["city"],
    properties: { unit: { type: "string", enum: ["c", "f"] }, city: { type: "string" } },
  },
};

export const weatherMessages: Message[] = [
  { role: "user", content: "Is it raining in 杭州?", meta: meta("m1") },
  {
    role: "assistant",
    meta: meta("m2", "model"),
    content: [
      { type: "thinking", thinking: "I need the weather tool." },
      {
        type: "tool_call",
        id: "call_1",
        name: "get_weather",
        argumentsText: '{"city":"杭州","unit":"c"}',
        arguments: { city: "杭州", unit: "c" },
      },
    ],
  },
  {
    role: "tool",
    toolCallId: "call_1",
    toolName: "get_weather",
    content: '{"rain":true,"temp_c":18}',
    isError: false,
    meta: meta("m3", "tool"),
  },
  {
    role: "assistant",
    meta: meta("m4", "model"),
    content: [
      { type: "thinking", thinking: "It rains." },
      { type: "text", text: "Yes, it is raining in 杭州 (18 °C)." },
    ],
  },
];

export const statusTail: UserMessage = {
  role: "user",
  content: "[status] call 3 · 2025-05-01 09:00",
  meta: meta("tail", "harness"),
};

export function weatherRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: { staticText: "You are a weather assistant.", sessionText: "User: Ada, Hangzhou." },
    tools: [weatherTool],
    messages: weatherMessages,
    cacheBreakpoints: [],
    settings: {},
    ...overrides,
  };
}
