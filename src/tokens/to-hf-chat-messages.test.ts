import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "../types/index.js";
import { toHfChatMessage, toHfChatMessages } from "./to-hf-chat-messages.js";
import { toHfTools } from "./to-hf-tools.js";
import { meta, statusTail, weatherRequest, weatherTool } from "./test-support/weather-request.js";
import { toPythonJson } from "./python-json.js";

describe("toHfChatMessages", () => {
  it("translates a request into template messages: system, trajectory, tail", () => {
    expect(toHfChatMessages(weatherRequest({ tail: statusTail }))).toEqual([
      { role: "system", content: "You are a weather assistant.\n\nUser: Ada, Hangzhou." },
      { role: "user", content: "Is it raining in 杭州?" },
      {
        role: "assistant",
        content: "",
        reasoning_content: "I need the weather tool.",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: { city: "杭州", unit: "c" } } }],
      },
      { role: "tool", content: '{"rain":true,"temp_c":18}', tool_call_id: "call_1", name: "get_weather" },
      { role: "assistant", content: "Yes, it is raining in 杭州 (18 °C).", reasoning_content: "It rains." },
      { role: "user", content: "[status] call 3 · 2025-05-01 09:00" },
    ]);
  });

  it("uses the static system text alone when there is no session text, and no system message when empty", () => {
    expect(toHfChatMessages(weatherRequest({ system: { staticText: "S", sessionText: "" } }))[0]).toEqual({
      role: "system",
      content: "S",
    });
    expect(toHfChatMessages(weatherRequest({ system: { staticText: "" }, messages: [] }))).toEqual([]);
  });

  it("keeps unparsable arguments as text and reads empty arguments as an empty object", () => {
    const message: AssistantMessage = {
      role: "assistant",
      meta: meta("a", "model"),
      content: [
        { type: "tool_call", id: "1", name: "f", argumentsText: "{broken", arguments: undefined },
        { type: "tool_call", id: "2", name: "g", argumentsText: "", arguments: undefined },
      ],
    };
    const converted = toHfChatMessage(message);
    expect(converted.role === "assistant" && converted.tool_calls?.map((call) => call.function.arguments)).toEqual([
      "{broken",
      {},
    ]);
    expect(converted).not.toHaveProperty("reasoning_content");
  });
});

describe("toHfTools", () => {
  it("wraps definitions as function tools with parameter keys sorted, as the OpenAI-compatible provider sends them", () => {
    const [tool] = toHfTools([weatherTool]);
    expect(toPythonJson(tool)).toBe(
      '{"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city.", ' +
        '"parameters": {"properties": {"city": {"type": "string"}, "unit": {"enum": ["c", "f"], "type": "string"}}, ' +
        '"required": ["city"], "type": "object"}}}',
    );
  });
});
