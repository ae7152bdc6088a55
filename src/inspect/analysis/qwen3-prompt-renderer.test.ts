import { describe, expect, it } from "vitest";
import { getTokenCounter, renderModelRequest, sharedSegmentPrefix } from "../../tokens/index.js";
import type { Message, ModelRequest } from "../../types/index.js";
import { assistant, request, thinking, tool, toolCall, toolResult, user } from "../test-support/transcript-builder.js";
import { createQwen3PromptRenderer } from "./qwen3-prompt-renderer.js";

const counter = getTokenCounter("qwen3");

describe("incremental Qwen3 rendering", () => {
  const calls = [toolCall("a", "search", { query: "flights to Paris", limit: 3 }), toolCall("b", "search", { query: "hotels" })];
  const conversation: Message[] = [
    user("Plan a trip. 你好"),
    assistant("Let me search.", [thinking("The user wants a trip."), ...calls]),
    toolResult("a", "search", "[1, 2, 3]"),
    toolResult("b", "search", "none"),
    assistant("<think>\nold style reasoning\n</think>\n\nFound flights."),
    user("<tool_response>\npasted\n</tool_response>"),
    assistant("", [thinking("Quick check."), toolCall("c", "search", { query: "trains" })]),
    toolResult("c", "search", "ok"),
    { role: "system", content: "A mid-conversation system note.", meta: { id: "sys", origin: "harness", createdAt: "" } },
  ];
  const requests: ModelRequest[] = [];
  for (let end = 0; end <= conversation.length; end++) {
    requests.push(request("You plan trips.", conversation.slice(0, end), [tool("search")]));
    requests.push(request("", conversation.slice(0, end)));
    requests.push(request("You plan trips.", conversation.slice(0, end), [], user("[status] call 3 of 50", "harness")));
  }

  it("renders byte-identically to the full template and counts the same tokens", () => {
    const renderer = createQwen3PromptRenderer(counter);
    for (const value of requests) {
      const rendered = renderer.render(value);
      const full = renderModelRequest(value);
      expect(rendered.segments.map((segment) => segment.text).join("")).toBe(full);
      expect(rendered.total).toBe(counter.count(full));
    }
  });

  it("tokenizes each segment once and attributes every segment to its message", () => {
    const renderer = createQwen3PromptRenderer(counter);
    const first = renderer.render(request("s", conversation.slice(0, 4)));
    const cached = renderer.cachedSegments;
    const second = renderer.render(request("s", conversation.slice(0, 5)));
    // The new assistant turn, and the generation prompt is shared.
    expect(renderer.cachedSegments).toBe(cached + 1);
    expect(second.owners.map((owner) => owner.part)).toEqual(["header", "user", "assistant", "toolResults", "assistant", "generation_prompt"]);
    expect(second.owners[3]).toEqual({ part: "toolResults", messageIndex: 2 });
    // Everything is shared, the generation prompt too: the reply starts with the same tokens.
    expect(sharedSegmentPrefix(first, second)).toEqual({ tokens: first.total, differingSegment: 4 });
  });
});
