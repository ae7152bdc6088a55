import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../../types/index.js";
import { buildOpenAIRequestBody } from "./build-openai-request-body.js";
import { assistant, request, toolResult, user, weatherTool } from "./test-support/request-fixtures.js";

describe("buildOpenAIRequestBody", () => {
  it("writes the keys in a fixed order with messages last", () => {
    const serialized = buildOpenAIRequestBody({
      model: "gpt-4o-mini",
      stream: true,
      reasoningRoundTrip: "strip",
      request: request({
        tools: [weatherTool],
        tail: user("tail", "[status]", "harness"),
        settings: { extraBody: { top_k: 20, response_format: { type: "text" } }, temperature: 0.2, maxOutputTokens: 512 },
      }),
    });
    const expectedPrefix =
      '{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_usage":true},"max_tokens":512,"temperature":0.2,' +
      '"top_k":20,"response_format":{"type":"text"},"tools":[{"type":"function","function":{"name":"get_weather",' +
      '"description":"Current weather for a city.","parameters":{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"}}}],' +
      '"messages":[{"role":"system","content":"You are a helpful agent."},{"role":"user","content":"Hello"}';
    expect(serialized).toEqual({ body: `${expectedPrefix},{"role":"user","content":"[status]"}]}`, prefixLength: expectedPrefix.length });
  });

  it("omits stream_options and empty tools when not streaming, and ends the prefix before ]} without a tail", () => {
    const serialized = buildOpenAIRequestBody({ model: "m", stream: false, reasoningRoundTrip: "strip", request: request() });
    expect(serialized.body).toBe(
      '{"model":"m","stream":false,"messages":[{"role":"system","content":"You are a helpful agent."},{"role":"user","content":"Hello"}]}',
    );
    expect(serialized.prefixLength).toBe(serialized.body.length - 2);
  });

  it("keeps the first body's prefix as a byte-prefix of the next body when messages are appended and the tail changes", () => {
    const first = buildOpenAIRequestBody({
      model: "m",
      stream: true,
      reasoningRoundTrip: "send",
      request: request({ tools: [weatherTool], tail: user("t1", "[status] turn 1", "harness") }),
    });
    const appended: Message[] = [
      assistant("a1", [
        { type: "thinking", thinking: "Need weather." },
        { type: "tool_call", id: "call_1", name: "get_weather", argumentsText: '{"city":"Paris"}', arguments: { city: "Paris" } },
      ]),
      toolResult("r1", "call_1", "get_weather", "18°C"),
    ];
    const second = buildOpenAIRequestBody({
      model: "m",
      stream: true,
      reasoningRoundTrip: "send",
      request: request({ tools: [weatherTool], messages: [user("m1", "Hello"), ...appended], tail: user("t2", "[status] turn 2", "harness") }),
    });
    expect(second.body.startsWith(first.body.slice(0, first.prefixLength))).toBe(true);
    expect(second.body.slice(0, second.prefixLength).endsWith('"content":"18°C"}')).toBe(true);
  });

  it("keeps the prefix property for any appended messages and tails", () => {
    const text = fc.string({ maxLength: 20 });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 4 }), fc.array(text, { minLength: 1, maxLength: 4 }), fc.option(text), fc.option(text), (head, more, tail1, tail2) => {
        const build = (contents: string[], tail: string | null) =>
          buildOpenAIRequestBody({
            model: "m",
            stream: true,
            reasoningRoundTrip: "strip",
            request: request({
              system: { staticText: "" },
              messages: contents.map((content, index) => user(`u${index}`, content)),
              tail: tail === null ? undefined : user("tail", tail, "harness"),
            }),
          });
        const first = build(head, tail1);
        const second = build([...head, ...more], tail2);
        expect(second.body.startsWith(first.body.slice(0, first.prefixLength))).toBe(true);
        expect(JSON.parse(second.body)).toBeTypeOf("object");
      }),
    );
  });

  it.each([
    [{ extraBody: { messages: [] } }, /extraBody\.messages/],
    [{ maxOutputTokens: 0 }, /maxOutputTokens/],
    [{ temperature: Number.NaN }, /temperature/],
  ])("rejects settings no vendor accepts: %j", (settings, message) => {
    expect(() => buildOpenAIRequestBody({ model: "m", stream: true, reasoningRoundTrip: "strip", request: request({ settings }) })).toThrowError(message);
  });
});
