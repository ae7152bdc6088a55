import { describe, expect, it } from "vitest";
import { getTokenCounter } from "./get-token-counter.js";
import { createSegmentTokenizer, sharedPrefixTokens } from "./segmented-prompt-tokens.js";
import type { HfChatMessage } from "./hf-chat-message.js";
import { renderChatTemplate } from "./render-chat-template.js";

describe("segmented prompt tokens", () => {
  const counter = getTokenCounter("qwen3");
  const conversation: HfChatMessage[] = [
    { role: "system", content: "You are a helpful assistant. 你好" },
    { role: "user", content: "What's in logs/server.log?" },
    { role: "assistant", content: "Let me look." },
    { role: "user", content: "Thanks!" },
  ];

  it("gives exactly the tokens of the whole rendered prompt", () => {
    const rendered = renderChatTemplate({ messages: conversation, addGenerationPrompt: true });
    const segmented = createSegmentTokenizer(counter).tokenize(rendered);
    expect(segmented.segments.length).toBe(5);
    expect(segmented.segments.flatMap((segment) => [...segment.tokens])).toEqual(counter.encode!(rendered));
    expect(segmented.total).toBe(counter.count(rendered));
  });

  it("tokenizes a repeated piece once and finds the shared prefix in tokens", () => {
    const tokenizer = createSegmentTokenizer(counter);
    const first = tokenizer.tokenize(renderChatTemplate({ messages: conversation.slice(0, 2), addGenerationPrompt: true }));
    const cachedAfterFirst = tokenizer.cachedSegments;
    const second = tokenizer.tokenize(renderChatTemplate({ messages: conversation, addGenerationPrompt: true }));
    expect(tokenizer.cachedSegments).toBe(cachedAfterFirst + 2);
    const whole = (value: typeof first) => value.segments.flatMap((segment) => [...segment.tokens]);
    const expected = whole(first).findIndex((token, index) => token !== whole(second)[index]);
    expect(sharedPrefixTokens(first, second)).toBe(expected === -1 ? first.total : expected);
    expect(sharedPrefixTokens(first, second)).toBeGreaterThan(first.total - 5);
  });
});
