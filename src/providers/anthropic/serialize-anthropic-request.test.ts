import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../../types/index.js";
import type { AnthropicBodySettings } from "./build-anthropic-request-body.js";
import { serializeAnthropicRequest } from "./serialize-anthropic-request.js";
import { assistant, call, readFileTool, request, status, text, toolResult, user } from "./test-support/fixtures.js";

const settings: AnthropicBodySettings = { model: "claude-test", maxOutputTokens: 8192, cacheTtl: "5m" };
const serialize = (messages: Message[], tail?: string) =>
  serializeAnthropicRequest(
    request({ tools: [readFileTool], messages, ...(tail === undefined ? {} : { tail: status(tail) }), cacheBreakpoints: [{ kind: "prefix" }, { kind: "message", index: messages.length - 1 }] }),
    settings,
  );

function expectPrefixHolds(first: Message[], second: Message[], tails: [string | undefined, string | undefined]) {
  const previous = serialize(first, tails[0]);
  const next = serialize(second, tails[1]);
  expect(next.body.startsWith(previous.body.slice(0, previous.prefixLength))).toBe(true);
}

describe("serializeAnthropicRequest", () => {
  it("leaves cache_control out of the serialized prompt", () => {
    expect(serialize([user("q")], "s").body).not.toContain("cache_control");
  });

  it("ends the prefix right after the last trajectory block, before the tail block merged into the same message", () => {
    const trajectory = [user("q"), assistant(call("toolu_1", '{"path":"a"}')), toolResult("toolu_1", "r1")];
    const { body, prefixLength } = serialize(trajectory, "[status] turn 1");
    expect(body.slice(prefixLength)).toBe(',{"type":"text","text":"[status] turn 1"}]}]}');
    expect(body.slice(0, prefixLength).endsWith('{"type":"tool_result","tool_use_id":"toolu_1","content":"r1"}')).toBe(true);
  });

  it("ends the prefix before a tail that is its own message, and inside the messages array when there is no tail", () => {
    const afterAssistant = serialize([user("q"), assistant(text("a"))], "s");
    expect(afterAssistant.body.slice(afterAssistant.prefixLength)).toBe(']},{"role":"user","content":[{"type":"text","text":"s"}]}]}');
    const noTail = serialize([user("q")]);
    expect(noTail.body.slice(noTail.prefixLength)).toBe("]}]}");
    const empty = serialize([], "s");
    expect(empty.body.slice(empty.prefixLength)).toBe('{"role":"user","content":[{"type":"text","text":"s"}]}]}');
  });

  it("keeps the previous prefix when tool results with a merged tail are followed by more turns and a new tail", () => {
    const first = [user("q"), assistant(call("toolu_1", "{}")), toolResult("toolu_1", "r1")];
    expectPrefixHolds(first, [...first, assistant(text("done"))], ["[status] 1", "[status] 2"]);
    // The next call appends to the very wire message the old tail sat in.
    expectPrefixHolds(first, [...first, user("also this")], ["[status] 1", "[status] 2"]);
    expectPrefixHolds(first, [...first, toolResult("toolu_2", "late")], ["[status] 1", undefined]);
  });

  it("keeps the prefix for any trajectory extended by any messages with any tails", () => {
    const message = fc.oneof(
      fc.string().map((content) => user(content)),
      fc.string({ minLength: 1 }).map((content) => assistant(text(content))),
      fc.tuple(fc.string(), fc.string()).map(([id, args]) => assistant({ type: "thinking", thinking: "t", signature: "s" }, call(id, args))),
      fc.tuple(fc.string(), fc.string(), fc.boolean()).map(([id, content, isError]) => toolResult(id, content, isError)),
    );
    const tail = fc.option(fc.string(), { nil: undefined });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), fc.array(message, { maxLength: 4 }), tail, tail, (first, added, firstTail, nextTail) => {
        expectPrefixHolds(first, [...first, ...added], [firstTail, nextTail]);
      }),
    );
  });
});
