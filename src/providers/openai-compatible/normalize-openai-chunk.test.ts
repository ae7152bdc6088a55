import { describe, expect, it } from "vitest";
import { normalizeOpenAIChunk } from "./normalize-openai-chunk.js";

describe("normalizeOpenAIChunk", () => {
  it("reads text, finish_reason and tool call fragments from a streamed delta", () => {
    const chunk = normalizeOpenAIChunk(
      {
        id: "chatcmpl-1",
        object: "chat.completion.chunk",
        choices: [
          {
            index: 0,
            delta: { content: "Hi", tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "f", arguments: "" } }] },
            logprobs: null,
            finish_reason: null,
          },
        ],
        usage: null,
      },
      "delta",
    );
    expect(chunk).toEqual({ id: "chatcmpl-1", text: "Hi", toolCalls: [{ index: 1, id: "call_b", name: "f", argumentsText: "" }] });
  });

  // OpenAI's refused answer comes as `refusal` with `content: null`; it was dropped, leaving an empty answer.
  it("reads OpenAI's refusal as the answer's text, streamed and whole", () => {
    expect(normalizeOpenAIChunk({ choices: [{ index: 0, delta: { content: null, refusal: "I can't help with that." } }] }, "delta").text).toBe("I can't help with that.");
    expect(normalizeOpenAIChunk({ choices: [{ index: 0, message: { role: "assistant", content: null, refusal: "No." } }] }, "message").text).toBe("No.");
  });

  // Mistral's reasoning models: every such chunk was refused with "`content` is not a string".
  it("reads content sent as a list of chunks: text and refusal chunks as text, thinking chunks as reasoning", () => {
    const thinking = normalizeOpenAIChunk({ choices: [{ index: 0, delta: { content: [{ type: "thinking", thinking: [{ type: "text", text: "Two plus " }, { type: "text", text: "two." }] }] } }] }, "delta");
    expect(thinking).toEqual({ reasoning: "Two plus two.", toolCalls: [] });
    const text = normalizeOpenAIChunk({ choices: [{ index: 0, message: { content: [{ type: "thinking", thinking: "hm" }, { type: "text", text: "4" }, { type: "image_url", image_url: { url: "x" } }, { type: "text", text: "." }] } }] }, "message");
    expect(text).toEqual({ reasoning: "hm", text: "4.", toolCalls: [] });
    expect(() => normalizeOpenAIChunk({ choices: [{ index: 0, delta: { content: [{ type: "text", text: 4 }] } }] }, "delta")).toThrow("`content chunk text` is not a string");
  });

  it("prefers reasoning_content over reasoning, and reads Ollama's reasoning", () => {
    expect(normalizeOpenAIChunk({ choices: [{ index: 0, delta: { reasoning_content: "a", reasoning: "a" } }] }, "delta").reasoning).toBe("a");
    expect(normalizeOpenAIChunk({ choices: [{ index: 0, delta: { reasoning: "b" } }] }, "delta").reasoning).toBe("b");
  });

  it("reads usage from the top level and from inside the choice (Kimi)", () => {
    expect(normalizeOpenAIChunk({ choices: [], usage: { prompt_tokens: 1 } }, "delta").usage).toEqual({ prompt_tokens: 1 });
    expect(normalizeOpenAIChunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop", usage: { cached_tokens: 2 } }] }, "delta")).toEqual({
      toolCalls: [],
      finishReason: "stop",
      usage: { cached_tokens: 2 },
    });
  });

  it("uses the position as the index of tool calls in a whole message, and accepts object arguments", () => {
    const chunk = normalizeOpenAIChunk(
      { choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "x", type: "function", function: { name: "f", arguments: { a: 1 } } }] } }] },
      "message",
    );
    expect(chunk.toolCalls).toEqual([{ index: 0, id: "x", name: "f", argumentsText: '{"a":1}' }]);
  });

  it("reports a vendor error object with its raw text", () => {
    const chunk = normalizeOpenAIChunk({ error: { message: "Upstream overloaded", code: 502 } }, "delta");
    expect(chunk.error).toEqual({ message: "Upstream overloaded", raw: '{"error":{"message":"Upstream overloaded","code":502}}' });
  });

  it.each([
    ["a non-object chunk", [1, 2]],
    ["choices that are not an array", { choices: {} }],
    ["content that is not a string", { choices: [{ index: 0, delta: { content: 5 } }] }],
    ["tool_calls that are not an array", { choices: [{ index: 0, delta: { tool_calls: "x" } }] }],
  ])("rejects %s with provider_response_invalid", (_case, value) => {
    expect(() => normalizeOpenAIChunk(value, "delta")).toThrowError(expect.objectContaining({ code: "provider_response_invalid" }));
  });
});
