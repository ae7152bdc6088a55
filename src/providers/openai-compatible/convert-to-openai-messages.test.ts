import { describe, expect, it } from "vitest";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";
import { assistant, toolResult, user } from "./test-support/request-fixtures.js";

const toolLoop = [
  user("m1", "Weather in Paris and Oslo?"),
  assistant("m2", [
    { type: "thinking", thinking: "Two cities, " },
    { type: "thinking", thinking: "two calls." },
    { type: "tool_call", id: "call_a", name: "get_weather", argumentsText: '{"city": "Paris"}', arguments: { city: "Paris" } },
    { type: "tool_call", id: "call_b", name: "get_weather", argumentsText: '{"city":"Oslo",}', arguments: undefined },
  ]),
  toolResult("m3", "call_a", "get_weather", "18°C"),
  toolResult("m4", "call_b", "get_weather", "Invalid JSON arguments", true),
  assistant("m5", [{ type: "text", text: "Paris 18°C." }]),
];

describe("convertToOpenAIMessages", () => {
  it("writes one system message, tool calls with the exact argument text, and tool messages", () => {
    const result = convertToOpenAIMessages({
      system: { staticText: "Static.", sessionText: "User: Ada." },
      messages: toolLoop,
      tail: user("tail", "[status] turn 3", "harness"),
      reasoningRoundTrip: "strip",
    });
    expect(result).toEqual({
      prefix: [
        { role: "system", content: "Static.\n\nUser: Ada." },
        { role: "user", content: "Weather in Paris and Oslo?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
            { id: "call_b", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo",}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_a", content: "18°C" },
        { role: "tool", tool_call_id: "call_b", content: "Invalid JSON arguments" },
        { role: "assistant", content: "Paris 18°C." },
      ],
      tail: { role: "user", content: "[status] turn 3" },
    });
  });

  it("sends joined reasoning_content back when the vendor policy is send, before tool_calls", () => {
    const result = convertToOpenAIMessages({
      system: { staticText: "Static." },
      messages: toolLoop.slice(0, 2),
      reasoningRoundTrip: "send",
    });
    expect(JSON.stringify(result.prefix[2])).toBe(
      '{"role":"assistant","content":null,"reasoning_content":"Two cities, two calls.","tool_calls":[' +
        '{"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\": \\"Paris\\"}"}},' +
        '{"id":"call_b","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"Oslo\\",}"}}]}',
    );
    expect(result.tail).toBeUndefined();
  });

  it("uses an empty string for an assistant turn without text or tool calls", () => {
    const result = convertToOpenAIMessages({
      system: { staticText: "S" },
      messages: [assistant("a", [{ type: "thinking", thinking: "hmm" }])],
      reasoningRoundTrip: "strip",
    });
    expect(result.prefix[1]).toEqual({ role: "assistant", content: "" });
  });

  it("keeps text next to tool calls and passes system messages of the trajectory through", () => {
    const result = convertToOpenAIMessages({
      system: { staticText: "", sessionText: "Only session." },
      messages: [
        { role: "system", content: "Summary of earlier turns.", meta: { id: "s", origin: "harness", createdAt: "x" } },
        assistant("a", [
          { type: "text", text: "Checking." },
          { type: "tool_call", id: "c", name: "ls", argumentsText: "{}", arguments: {} },
        ]),
      ],
      reasoningRoundTrip: "send",
    });
    expect(result.prefix).toEqual([
      { role: "system", content: "Only session." },
      { role: "system", content: "Summary of earlier turns." },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [{ id: "c", type: "function", function: { name: "ls", arguments: "{}" } }],
      },
    ]);
  });

  it("omits the system message when the system prompt is empty", () => {
    const result = convertToOpenAIMessages({ system: { staticText: "" }, messages: [user("u", "hi")], reasoningRoundTrip: "strip" });
    expect(result.prefix).toEqual([{ role: "user", content: "hi" }]);
  });
});

describe("convertToOpenAIMessages for DeepSeek's thinking mode", () => {
  it("gives a tool-call turn without reasoning reasoning_content \"\" when the vendor requires it", () => {
    const turn = assistant("a", [{ type: "tool_call", id: "c", name: "ls", argumentsText: "{}", arguments: {} }]);
    const wire = (reasoningOnToolCallTurns: boolean) =>
      convertToOpenAIMessages({ system: { staticText: "" }, messages: [turn], reasoningRoundTrip: "send", reasoningOnToolCallTurns }).prefix[0];
    expect(wire(true)).toEqual({ role: "assistant", content: null, reasoning_content: "", tool_calls: [{ id: "c", type: "function", function: { name: "ls", arguments: "{}" } }] });
    expect(wire(false)).not.toHaveProperty("reasoning_content");
  });
});
