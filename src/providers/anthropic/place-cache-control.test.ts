import { describe, expect, it } from "vitest";
import type { CacheBreakpoint } from "../../types/index.js";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages.js";
import { convertToAnthropicSystem } from "./convert-to-anthropic-system.js";
import { convertToAnthropicTools } from "./convert-to-anthropic-tools.js";
import { placeCacheControl, type AnthropicCacheTtl } from "./place-cache-control.js";
import { assistant, call, readFileTool, status, text, toolResult, user } from "./test-support/fixtures.js";
import type { Message, UserMessage } from "../../types/index.js";

const ephemeral = { type: "ephemeral" };

function place(options: { trajectory: Message[]; tail?: UserMessage; breakpoints: CacheBreakpoint[]; withTools?: boolean; sessionText?: string; ttl?: AnthropicCacheTtl }) {
  const system = convertToAnthropicSystem({ staticText: "static", ...(options.sessionText ? { sessionText: options.sessionText } : {}) });
  return placeCacheControl({
    tools: convertToAnthropicTools(options.withTools ? [readFileTool, { ...readFileTool, name: "write_file" }] : []),
    system,
    hasStaticSystemBlock: true,
    conversion: convertToAnthropicMessages(options.trajectory, options.tail),
    breakpoints: options.breakpoints,
    ttl: options.ttl ?? "5m",
  });
}

describe("placeCacheControl", () => {
  it("marks the static system block for system_static", () => {
    const result = place({ trajectory: [user("q")], breakpoints: [{ kind: "system_static" }], sessionText: "per user" });
    expect(result.system).toEqual([
      { type: "text", text: "static", cache_control: ephemeral },
      { type: "text", text: "per user" },
    ]);
  });

  it("marks the end of the stable prefix (the last system block, after the tools) for prefix", () => {
    const result = place({ trajectory: [user("q")], breakpoints: [{ kind: "prefix" }], withTools: true, sessionText: "per user" });
    expect(result.system[1]).toEqual({ type: "text", text: "per user", cache_control: ephemeral });
    expect(result.tools.some((tool) => "cache_control" in tool)).toBe(false);
  });

  it("marks the last tool for prefix when there is no system prompt", () => {
    const result = placeCacheControl({
      tools: convertToAnthropicTools([readFileTool]),
      system: [],
      hasStaticSystemBlock: false,
      conversion: convertToAnthropicMessages([user("q")]),
      breakpoints: [{ kind: "prefix" }, { kind: "system_static" }],
      ttl: "5m",
    });
    expect(result.tools[0]?.cache_control).toEqual(ephemeral);
  });

  it("marks the last block of the wire message that holds the trajectory message", () => {
    const trajectory = [user("q"), assistant(text("t"), call("toolu_1", "{}")), toolResult("toolu_1", "r1")];
    const result = place({ trajectory, breakpoints: [{ kind: "message", index: 1 }, { kind: "message", index: 2 }] });
    expect(result.messages[1]?.content[1]).toEqual({ type: "tool_use", id: "toolu_1", name: "read_file", input: {}, cache_control: ephemeral });
    expect(result.messages[2]?.content[0]).toEqual({ type: "tool_result", tool_use_id: "toolu_1", content: "r1", cache_control: ephemeral });
  });

  it("never marks the tail: a breakpoint landing on the merged status block moves to the last trajectory block", () => {
    const trajectory = [user("q"), assistant(call("toolu_1", "{}")), toolResult("toolu_1", "r1")];
    const result = place({ trajectory, tail: status("[status] 12:00, 3 calls"), breakpoints: [{ kind: "message", index: 2 }] });
    expect(JSON.stringify(result.messages[2])).toBe(
      '{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"r1","cache_control":{"type":"ephemeral"}},' +
        '{"type":"text","text":"[status] 12:00, 3 calls"}]}',
    );
  });

  it("never marks a thinking block: the marker moves back to the block before it", () => {
    const trajectory = [user("q"), assistant(text("a"), { type: "thinking", thinking: "t", signature: "sig" })];
    const result = place({ trajectory, breakpoints: [{ kind: "message", index: 1 }] });
    expect(result.messages[1]?.content).toEqual([
      { type: "text", text: "a", cache_control: ephemeral },
      { type: "thinking", thinking: "t", signature: "sig" },
    ]);
  });

  it("writes ttl 1h when asked", () => {
    const result = place({ trajectory: [user("q")], breakpoints: [{ kind: "system_static" }], ttl: "1h" });
    expect(JSON.stringify(result.system[0])).toBe('{"type":"text","text":"static","cache_control":{"type":"ephemeral","ttl":"1h"}}');
  });

  it("keeps at most 4 breakpoints, dropping the earliest, and counts duplicates once", () => {
    const trajectory = [user("a"), assistant(text("b")), user("c"), assistant(text("d")), user("e")];
    const result = place({
      trajectory,
      withTools: true,
      breakpoints: [{ kind: "system_static" }, { kind: "prefix" }, ...[0, 1, 2, 3, 4, 4].map((index) => ({ kind: "message" as const, index }))],
    });
    const marked = result.messages.map((message) => message.content.some((block) => "cache_control" in block));
    expect(marked).toEqual([false, true, true, true, true]);
    expect(result.system.some((block) => "cache_control" in block)).toBe(false);
  });

  it("ignores breakpoints that point outside the trajectory and does not mutate its input", () => {
    const conversion = convertToAnthropicMessages([user("q")]);
    const before = JSON.stringify(conversion);
    const result = placeCacheControl({ tools: [], system: [], hasStaticSystemBlock: false, conversion, breakpoints: [{ kind: "message", index: 9 }, { kind: "message", index: 0 }], ttl: "5m" });
    expect(result.messages[0]?.content[0]).toEqual({ type: "text", text: "q", cache_control: ephemeral });
    expect(JSON.stringify(conversion)).toBe(before);
  });
});
