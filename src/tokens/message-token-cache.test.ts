import { describe, expect, it } from "vitest";
import type { Message } from "../types/index.js";
import { countRenderedPrompt } from "./count-rendered-prompt.js";
import { getTokenCounter } from "./get-token-counter.js";
import { createMessageTokenCache } from "./message-token-cache.js";
import { meta, statusTail, weatherRequest } from "./test-support/weather-request.js";
import type { TokenCounter } from "./token-counter.js";

/** Wraps a counter and records every text it tokenizes. */
function spyOn(counter: TokenCounter): TokenCounter & { calls: string[] } {
  const calls: string[] = [];
  return {
    name: counter.name,
    exact: counter.exact,
    calls,
    count(text) {
      calls.push(text);
      return counter.count(text);
    },
  };
}

describe("createMessageTokenCache", () => {
  it("tokenizes each message once, however often the request is counted", () => {
    const counter = spyOn(getTokenCounter("qwen3"));
    const cache = createMessageTokenCache(counter);
    const request = weatherRequest({ tail: statusTail });
    const first = cache.countRequest(request);
    const callsAfterFirst = counter.calls.length;
    const second = cache.countRequest({ ...request, tail: { ...statusTail, content: "[status] call 4" } });
    // Only the new tail was tokenized the second time.
    expect(counter.calls.slice(callsAfterFirst)).toEqual(["[status] call 4"]);
    expect(second).toBe(first - counter.count(statusTail.content) + counter.count("[status] call 4"));
  });

  it("counts an appended message without re-tokenizing the trajectory", () => {
    const counter = spyOn(getTokenCounter("o200k"));
    const cache = createMessageTokenCache(counter);
    const request = weatherRequest();
    cache.countRequest(request);
    counter.calls.length = 0;
    const next: Message = { role: "user", content: "And tomorrow?", meta: meta("m5") };
    cache.countRequest({ ...request, messages: [...request.messages, next] });
    expect(counter.calls).toEqual(["And tomorrow?"]);
  });

  it("counts again when an id comes back with other content", () => {
    const counter = spyOn(getTokenCounter("estimate"));
    const cache = createMessageTokenCache(counter);
    const short = cache.countMessage({ role: "user", content: "hi", meta: meta("same") });
    const long = cache.countMessage({ role: "user", content: "hello there, how are you?", meta: meta("same") });
    expect(long).toBeGreaterThan(short);
    expect(counter.calls).toEqual(["hi", "hello there, how are you?"]);
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it("adds the chat format's wrappers to each message", () => {
    const qwen3 = getTokenCounter("qwen3");
    const cache = createMessageTokenCache(qwen3);
    // <|im_start|>user\n … <|im_end|>\n
    expect(cache.countMessage({ role: "user", content: "hello", meta: meta("u") })).toBe(qwen3.count("hello") + 5);
  });

  it("approximates the exact rendered Qwen3 prompt closely", () => {
    const qwen3 = getTokenCounter("qwen3");
    const request = weatherRequest({ tail: statusTail });
    const approximate = createMessageTokenCache(qwen3).countRequest(request);
    const exact = countRenderedPrompt(request, qwen3);
    // The template hides the reasoning before the tail (the last user message); the cache counts it.
    expect(Math.abs(approximate / exact - 1)).toBeLessThan(0.1);
    expect(exact).toBe(282);
  });
});
