import { describe, expect, it } from "vitest";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";

describe("mapOpenAIFinishReason", () => {
  it.each([
    ["stop", false, { stopReason: "stop", rawStopReason: "stop" }],
    ["tool_calls", true, { stopReason: "tool_calls", rawStopReason: "tool_calls" }],
    ["function_call", true, { stopReason: "tool_calls", rawStopReason: "function_call" }],
    ["length", false, { stopReason: "length", rawStopReason: "length" }],
    ["length", true, { stopReason: "length", rawStopReason: "length" }],
    ["content_filter", false, { stopReason: "content_filter", rawStopReason: "content_filter" }],
    ["sensitive", false, { stopReason: "content_filter", rawStopReason: "sensitive" }],
    ["insufficient_system_resource", false, { stopReason: "error", rawStopReason: "insufficient_system_resource" }],
    ["abort", false, { stopReason: "error", rawStopReason: "abort" }],
    ["stop", true, { stopReason: "tool_calls", rawStopReason: "stop" }],
    ["something_new", false, { stopReason: "stop", rawStopReason: "something_new" }],
    [null, false, { stopReason: "stop" }],
    [undefined, true, { stopReason: "tool_calls" }],
  ] as const)("maps %s (tool calls: %s)", (raw, hasToolCalls, expected) => {
    expect(mapOpenAIFinishReason(raw, hasToolCalls)).toEqual(expected);
  });
});
