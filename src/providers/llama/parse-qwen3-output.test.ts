import { describe, expect, it } from "vitest";
import { createQwen3OutputParser, type Qwen3OutputEvent } from "./parse-qwen3-output.js";

function parseInChunks(text: string, chunkSize: number): Qwen3OutputEvent[] {
  const parser = createQwen3OutputParser();
  const events: Qwen3OutputEvent[] = [];
  for (let offset = 0; offset < text.length; offset += chunkSize) events.push(...parser.push(text.slice(offset, offset + chunkSize)));
  events.push(...parser.end());
  return merge(events);
}

function merge(events: Qwen3OutputEvent[]): Qwen3OutputEvent[] {
  const merged: Qwen3OutputEvent[] = [];
  for (const event of events) {
    const last = merged.at(-1);
    if (last && last.type === event.type && event.type !== "tool_call" && last.type !== "tool_call") last.delta += event.delta;
    else merged.push({ ...event });
  }
  return merged;
}

describe("createQwen3OutputParser", () => {
  const output = '<think>\nweigh it\n</think>\n\nReading.\n<tool_call>\n{"name": "read", "arguments": {"path": "a<b"}}\n</tool_call>';

  it("splits thinking, text and tool calls the way the template writes them, at any chunk size", () => {
    for (const chunkSize of [1, 2, 5, 1000]) {
      expect(parseInChunks(output, chunkSize)).toEqual([
        { type: "thinking", delta: "weigh it\n" },
        { type: "text", delta: "Reading.\n" },
        { type: "tool_call", text: '{"name": "read", "arguments": {"path": "a<b"}}' },
      ]);
    }
  });

  it("keeps a marker that does not fit the state as text, and an unfinished call as its text", () => {
    expect(parseInChunks("a </think> b <tool_call>\n{\"na", 3)).toEqual([{ type: "text", delta: 'a </think> b <tool_call>\n{"na' }]);
  });

  it("flushes a held-back marker start at the end", () => {
    expect(parseInChunks("x <too", 2)).toEqual([{ type: "text", delta: "x <too" }]);
  });
});
