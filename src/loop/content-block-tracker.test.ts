import { describe, expect, it } from "vitest";
import type { ModelResponse, ProviderEvent } from "../providers/provider.js";
import { createContentBlockTracker } from "./content-block-tracker.js";

const run = (events: ProviderEvent[], response: ModelResponse = { content: [], stopReason: "stop" }) => {
  const tracker = createContentBlockTracker(4);
  return [...events.flatMap((event) => tracker.apply(event)), ...tracker.finish(response)].map(({ turn: _turn, ...fields }) => fields);
};

describe("createContentBlockTracker", () => {
  it("derives blocks for a provider that sends deltas without indexes: a new block when the kind changes", () => {
    expect(
      run([
        { type: "thinking_delta", delta: "a" },
        { type: "thinking_delta", delta: "b" },
        { type: "text_delta", delta: "c" },
        { type: "thinking_delta", delta: "d" },
      ]),
    ).toEqual([
      { type: "thinking_start", index: 0 },
      { type: "thinking_delta", index: 0, delta: "a" },
      { type: "thinking_delta", index: 0, delta: "b" },
      { type: "thinking_end", index: 0, thinking: "ab" },
      { type: "text_start", index: 1 },
      { type: "text_delta", index: 1, delta: "c" },
      { type: "text_end", index: 1, text: "c" },
      { type: "thinking_start", index: 2 },
      { type: "thinking_delta", index: 2, delta: "d" },
      { type: "thinking_end", index: 2, thinking: "d" },
    ]);
  });

  it("moves a tool call numbered from 0 after a text block to the next free position", () => {
    const events = run(
      [
        { type: "text_delta", delta: "Sure." },
        { type: "tool_call_start", index: 0, id: "a", name: "f" },
        { type: "tool_call_delta", index: 0, delta: "{}" },
      ],
      { content: [{ type: "text", text: "Sure." }, { type: "tool_call", id: "a", name: "f", argumentsText: "{}", arguments: {} }], stopReason: "tool_calls" },
    );
    expect(events.filter((event) => event.type.startsWith("tool_call"))).toEqual([
      { type: "tool_call_start", index: 1, id: "a", name: "f" },
      { type: "tool_call_delta", index: 1, id: "a", delta: "{}" },
      { type: "tool_call_end", index: 1, id: "a", name: "f", argumentsText: "{}", arguments: {} },
    ]);
  });

  it("still announces tool calls a provider reported only in its final response", () => {
    expect(run([], { content: [{ type: "tool_call", id: "x", name: "g", argumentsText: '{"n":1}', arguments: { n: 1 } }], stopReason: "tool_calls" })).toEqual([
      { type: "tool_call_start", index: 0, id: "x", name: "g" },
      { type: "tool_call_end", index: 0, id: "x", name: "g", argumentsText: '{"n":1}', arguments: { n: 1 } },
    ]);
  });
});
