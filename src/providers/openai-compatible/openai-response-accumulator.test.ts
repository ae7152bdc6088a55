import { describe, expect, it } from "vitest";
import { OpenAIResponseAccumulator } from "./openai-response-accumulator.js";

describe("OpenAIResponseAccumulator", () => {
  it("numbers blocks as they first appear, interleaved tool calls included, and lists the parts in that order", () => {
    const accumulator = new OpenAIResponseAccumulator();
    const events = [
      accumulator.apply({ toolCalls: [{ index: 1, id: "call_b", name: "g", argumentsText: "" }] }),
      accumulator.apply({ text: "Sure.", toolCalls: [{ index: 0, id: "call_a", name: "f", argumentsText: '{"x"' }] }),
      accumulator.apply({ toolCalls: [{ index: 1, argumentsText: '{"y":' }] }),
      accumulator.apply({ toolCalls: [{ index: 0, argumentsText: ":1}" }] }),
      accumulator.apply({ reasoning: "think", toolCalls: [{ index: 1, argumentsText: "2}" }], finishReason: "tool_calls" }),
      accumulator.finish(),
    ].flat();
    expect(events).toEqual([
      { type: "tool_call_start", index: 0, id: "call_b", name: "g" },
      { type: "text_start", index: 1 },
      { type: "text_delta", index: 1, delta: "Sure." },
      { type: "tool_call_start", index: 2, id: "call_a", name: "f" },
      { type: "tool_call_delta", index: 2, delta: '{"x"' },
      { type: "tool_call_delta", index: 0, delta: '{"y":' },
      { type: "tool_call_delta", index: 2, delta: ":1}" },
      { type: "thinking_start", index: 3 },
      { type: "thinking_delta", index: 3, delta: "think" },
      { type: "tool_call_delta", index: 0, delta: "2}" },
      { type: "tool_call_end", index: 0 },
      { type: "text_end", index: 1 },
      { type: "tool_call_end", index: 2 },
      { type: "thinking_end", index: 3 },
    ]);
    expect(accumulator.response()).toEqual({
      content: [
        { type: "tool_call", id: "call_b", name: "g", argumentsText: '{"y":2}', arguments: { y: 2 } },
        { type: "text", text: "Sure." },
        { type: "tool_call", id: "call_a", name: "f", argumentsText: '{"x":1}', arguments: { x: 1 } },
        { type: "thinking", thinking: "think" },
      ],
      stopReason: "tool_calls",
      rawStopReason: "tool_calls",
    });
  });

  it("orders the usual stream (reasoning, then text, then tool calls by index) thinking, text, tools", () => {
    const accumulator = new OpenAIResponseAccumulator();
    accumulator.apply({ reasoning: "plan", toolCalls: [] });
    accumulator.apply({ text: "Checking both.", toolCalls: [] });
    accumulator.apply({ toolCalls: [{ index: 0, id: "a", name: "f", argumentsText: "{}" }, { index: 1, id: "b", name: "g", argumentsText: "{}" }] });
    expect(accumulator.response().content.map((part) => part.type)).toEqual(["thinking", "text", "tool_call", "tool_call"]);
    expect(accumulator.finish()).toEqual([
      { type: "thinking_end", index: 0 },
      { type: "text_end", index: 1 },
      { type: "tool_call_end", index: 2 },
      { type: "tool_call_end", index: 3 },
    ]);
  });

  it("reads an empty argument string (a call without parameters) as no arguments", () => {
    const accumulator = new OpenAIResponseAccumulator();
    accumulator.apply({ toolCalls: [{ index: 0, id: "c", name: "list_dir", argumentsText: "" }] });
    expect(accumulator.response().content).toEqual([{ type: "tool_call", id: "c", name: "list_dir", argumentsText: "", arguments: {} }]);
  });

  it("keeps invalid argument JSON as text with arguments undefined, never repaired", () => {
    const accumulator = new OpenAIResponseAccumulator();
    accumulator.apply({ toolCalls: [{ index: 0, id: "c", name: "f", argumentsText: '{"a":1,' }] });
    expect(accumulator.response().content).toEqual([{ type: "tool_call", id: "c", name: "f", argumentsText: '{"a":1,', arguments: undefined }]);
  });

  it("holds arguments back until the name arrives, and gives id-less calls a stable id", () => {
    const accumulator = new OpenAIResponseAccumulator();
    expect(accumulator.apply({ toolCalls: [{ index: 0, argumentsText: "{}" }] })).toEqual([]);
    expect(accumulator.apply({ toolCalls: [{ index: 0, name: "f" }] })).toEqual([
      { type: "tool_call_start", index: 0, id: "call_0", name: "f" },
      { type: "tool_call_delta", index: 0, delta: "{}" },
    ]);
  });

  it("skips empty deltas such as OpenAI's first role-only chunk", () => {
    const accumulator = new OpenAIResponseAccumulator();
    expect(accumulator.apply({ text: "", toolCalls: [] })).toEqual([]);
    expect(accumulator.response()).toEqual({ content: [], stopReason: "stop" });
  });

  // The failure a fuzzed stream found: two calls at index 0 with different ids were merged into one
  // call with concatenated arguments, and the second call vanished.
  it("starts a new call when a new id arrives at an index already in use, never merging two calls", () => {
    const accumulator = new OpenAIResponseAccumulator();
    const events = [
      accumulator.apply({ toolCalls: [{ index: 0, id: "call_a", name: "read_file", argumentsText: '{"path":' }] }),
      accumulator.apply({ toolCalls: [{ index: 0, argumentsText: '"a.txt"}' }] }),
      accumulator.apply({ toolCalls: [{ index: 0, id: "call_b", name: "list_dir", argumentsText: '{"path":"."}' }] }),
      accumulator.apply({ toolCalls: [{ index: 1, id: "call_c", name: "glob", argumentsText: '{"pattern":"*"}' }] }),
    ].flat();
    expect(events.filter((event) => event.type === "tool_call_start")).toEqual([
      { type: "tool_call_start", index: 0, id: "call_a", name: "read_file" },
      { type: "tool_call_start", index: 1, id: "call_b", name: "list_dir" },
      { type: "tool_call_start", index: 2, id: "call_c", name: "glob" },
    ]);
    expect(accumulator.response().content).toEqual([
      { type: "tool_call", id: "call_a", name: "read_file", argumentsText: '{"path":"a.txt"}', arguments: { path: "a.txt" } },
      { type: "tool_call", id: "call_b", name: "list_dir", argumentsText: '{"path":"."}', arguments: { path: "." } },
      { type: "tool_call", id: "call_c", name: "glob", argumentsText: '{"pattern":"*"}', arguments: { pattern: "*" } },
    ]);
  });

  // Older Ollama builds send each call whole with no `index` and no `id` (ollama/ollama#7881), so
  // every call reads as index 0: the second one's arguments were glued onto the first and its name lost.
  it("starts a new call at a reused index without ids when another name comes, or the same name after a whole object", () => {
    const accumulator = new OpenAIResponseAccumulator();
    accumulator.apply({ toolCalls: [{ index: 0, name: "read_file", argumentsText: '{"path":"a"}' }] });
    accumulator.apply({ toolCalls: [{ index: 0, name: "list_dir", argumentsText: '{"path":"."}' }] });
    accumulator.apply({ toolCalls: [{ index: 0, name: "list_dir", argumentsText: '{"path":"src"}' }] });
    expect(accumulator.response().content).toEqual([
      { type: "tool_call", id: "call_0", name: "read_file", argumentsText: '{"path":"a"}', arguments: { path: "a" } },
      { type: "tool_call", id: "call_1", name: "list_dir", argumentsText: '{"path":"."}', arguments: { path: "." } },
      { type: "tool_call", id: "call_2", name: "list_dir", argumentsText: '{"path":"src"}', arguments: { path: "src" } },
    ]);
  });

  it("keeps fragments that repeat the name without an id in the same call while the arguments are unfinished", () => {
    const accumulator = new OpenAIResponseAccumulator();
    accumulator.apply({ toolCalls: [{ index: 0, name: "f", argumentsText: '{"a":' }] });
    accumulator.apply({ toolCalls: [{ index: 0, name: "f", argumentsText: '{"b":1}}' }] });
    accumulator.apply({ toolCalls: [{ index: 0, name: "f", argumentsText: "" }] });
    expect(accumulator.response().content).toEqual([{ type: "tool_call", id: "call_0", name: "f", argumentsText: '{"a":{"b":1}}', arguments: { a: { b: 1 } } }]);
  });

  it("keeps fragments that repeat the same id at an index in the same call", () => {
    const accumulator = new OpenAIResponseAccumulator();
    accumulator.apply({ toolCalls: [{ index: 0, id: "call_a", name: "f", argumentsText: '{"a":' }] });
    accumulator.apply({ toolCalls: [{ index: 0, id: "call_a", argumentsText: "1}" }] });
    expect(accumulator.response().content).toEqual([{ type: "tool_call", id: "call_a", name: "f", argumentsText: '{"a":1}', arguments: { a: 1 } }]);
  });
});
