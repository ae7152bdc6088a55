import { describe, expect, it } from "vitest";
import { commonPrefixTokens } from "./common-prefix-tokens.js";
import type { HfChatMessage } from "./hf-chat-message.js";
import { getTokenCounter } from "./get-token-counter.js";
import { qwen3PrefixHazards } from "./qwen3-prefix-hazards.js";
import { renderChatTemplate } from "./render-chat-template.js";
import { statusTail, weatherRequest } from "./test-support/weather-request.js";
import { toHfChatMessages } from "./to-hf-chat-messages.js";

// The two Qwen3 template behaviours that break prefix caching, shown with the real template.
const render = (messages: HfChatMessage[], enableThinking?: boolean) =>
  renderChatTemplate({ messages, addGenerationPrompt: true, enableThinking });

const system: HfChatMessage = { role: "system", content: "You are terse." };
const question: HfChatMessage = { role: "user", content: "List the files." };
const toolTurn: HfChatMessage = {
  role: "assistant",
  content: "",
  reasoning_content: "I should run ls.",
  tool_calls: [{ type: "function", function: { name: "ls", arguments: { path: "." } } }],
};
const toolResult: HfChatMessage = { role: "tool", content: "a.txt\nb.txt" };
const answer: HfChatMessage = { role: "assistant", content: "a.txt, b.txt", reasoning_content: "Two files." };

describe("Qwen3 quirk (a): reasoning before the last user query is dropped", () => {
  const first = [system, question, toolTurn, toolResult, answer];
  const second = [...first, { role: "user" as const, content: "And their sizes?" }];

  it("renders the reasoning while the tool loop runs", () => {
    expect(render(first)).toContain("<think>\nI should run ls.\n</think>\n\n<tool_call>");
    expect(render(first)).toContain("<think>\nTwo files.\n</think>\n\na.txt, b.txt");
  });

  it("hides it once a new user query follows, so the earlier turns render differently", () => {
    const previousPrompt = render(first);
    const nextPrompt = render(second);
    expect(nextPrompt).not.toContain("I should run ls.");
    expect(nextPrompt).not.toContain("Two files.");
    expect(nextPrompt.startsWith(previousPrompt.replace(/<\|im_start\|>assistant\n$/, ""))).toBe(false);
    // The first difference is inside the first "<think>" (the next prompt has "<tool_call>" there).
    const thinkAt = previousPrompt.indexOf("<think>");
    expect(firstDifference(previousPrompt, nextPrompt) - thinkAt).toBeGreaterThanOrEqual(0);
    expect(firstDifference(previousPrompt, nextPrompt) - thinkAt).toBeLessThan("<think>".length);
  });

  it("is named by qwen3PrefixHazards for each affected turn, first one first", () => {
    expect(qwen3PrefixHazards(first, second).map(({ kind, messageIndex }) => ({ kind, messageIndex }))).toEqual([
      { kind: "reasoning_dropped", messageIndex: 2 },
      { kind: "reasoning_dropped", messageIndex: 4 },
    ]);
  });

  it("costs reusable tokens: the common token prefix ends inside the first assistant turn", () => {
    const qwen3 = getTokenCounter("qwen3");
    const previousTokens = qwen3.encode?.(render(first)) ?? [];
    const nextTokens = qwen3.encode?.(render(second)) ?? [];
    const reusable = commonPrefixTokens(previousTokens, nextTokens);
    const upToFirstAssistant = qwen3.count(render([system, question]));
    expect(reusable).toBe(upToFirstAssistant);
    expect(reusable).toBeLessThan(previousTokens.length - 20);
  });
});

describe("Qwen3 quirk (a) with ctxkit's status tail", () => {
  it("treats the tail as the last user query, so the running tool loop's reasoning is never shown", () => {
    const request = weatherRequest({ tail: statusTail });
    const prompt = renderChatTemplate({ messages: toHfChatMessages(request), addGenerationPrompt: true });
    expect(prompt).not.toContain("I need the weather tool.");
    expect(renderChatTemplate({ messages: toHfChatMessages(weatherRequest()) })).toContain("I need the weather tool.");
  });
});

describe("Qwen3 quirk (b): enable_thinking=false adds an empty think block that history does not keep", () => {
  const before = [system, question];
  const after = [...before, { role: "assistant" as const, content: "a.txt, b.txt" }, { role: "user" as const, content: "Thanks" }];

  it("ends the generation prompt with an empty think block", () => {
    expect(render(before, false).endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n")).toBe(true);
    expect(render(before).endsWith("<|im_start|>assistant\n")).toBe(true);
  });

  it("renders the generated turn without it, so the previous prompt is not a prefix", () => {
    const previousPrompt = render(before, false);
    const nextPrompt = render(after, false);
    expect(nextPrompt).toContain("<|im_start|>assistant\na.txt, b.txt<|im_end|>");
    expect(nextPrompt.startsWith(previousPrompt)).toBe(false);
    expect(firstDifference(previousPrompt, nextPrompt)).toBe(previousPrompt.length - "<think>\n\n</think>\n\n".length);
  });

  it("also breaks inside a tool loop, without any new user query", () => {
    const loop = [system, question, { ...toolTurn, reasoning_content: "" }, toolResult];
    expect(render(loop, false).startsWith(render(before, false))).toBe(false);
    expect(qwen3PrefixHazards(before, loop, { enableThinking: false })).toEqual([
      expect.objectContaining({ kind: "empty_think_dropped", messageIndex: 2 }),
    ]);
  });

  it("is named by qwen3PrefixHazards only when thinking was disabled", () => {
    expect(qwen3PrefixHazards(before, after, { enableThinking: false })).toEqual([
      expect.objectContaining({ kind: "empty_think_dropped", messageIndex: 2 }),
    ]);
    expect(qwen3PrefixHazards(before, after)).toEqual([]);
  });
});

describe("qwen3PrefixHazards agrees with the rendering", () => {
  it("finds nothing in a tool loop with thinking on, where the previous prompt stays a prefix", () => {
    const previous = [system, question, toolTurn, toolResult];
    const next = [...previous, { ...toolTurn, reasoning_content: "Now cat them." }, toolResult];
    expect(render(next).startsWith(render(previous))).toBe(true);
    expect(qwen3PrefixHazards(previous, next)).toEqual([]);
  });

  it("does not treat a user message that wraps a tool response as a new query", () => {
    const previous = [system, question, toolTurn];
    const next = [...previous, { role: "user" as const, content: "<tool_response>\nok\n</tool_response>" }];
    expect(render(next)).toContain("I should run ls.");
    expect(qwen3PrefixHazards(previous, next)).toEqual([]);
  });
});

function firstDifference(a: string, b: string): number {
  let index = 0;
  while (index < a.length && a[index] === b[index]) index += 1;
  return index;
}
