import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
import type { AssistantPart, ThinkingPart } from "../../types/index.js";
import { createOpenAICompatible } from "./create-openai-compatible.js";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";
import { normalizeOpenAIChunk } from "./normalize-openai-chunk.js";
import { OpenAIResponseAccumulator } from "./openai-response-accumulator.js";
import { assistant, collect, jsonHeaders, request, sseHeaders, toolResult, user, weatherTool, withoutTimings } from "./test-support/request-fixtures.js";
import type { OpenAICompatibleVendor } from "./vendor-profiles.js";

/** Real responses recorded from llama-server and OpenRouter; see fixtures/README.md for each origin. */
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const sseEvents = (text: string) => text.split("\n\n").filter((event) => event.trim() !== "").map((event) => `${event}\n\n`);

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function providerFor(vendor: OpenAICompatibleVendor, url: string, stream = true) {
  return createOpenAICompatible({ vendor, model: "recorded", baseURL: url, apiKey: "sk-test", stream, env: {} });
}

async function lastEvent(vendor: OpenAICompatibleVendor, chunks: string[] | { body: string }, stream = true) {
  server = await startLoopbackServer([Array.isArray(chunks) ? { headers: sseHeaders, chunks } : { headers: jsonHeaders, body: chunks.body }]);
  const events = withoutTimings(await collect(providerFor(vendor, server.url, stream).stream(request())));
  return events.at(-1) as { type: string; usage: unknown; response?: { content: unknown[] }; partial?: { content: unknown[] }; error?: Error };
}

describe("llama-server's prompt cache, from timings.cache_n", () => {
  it("counts cache_n as cached prompt tokens when usage has no cached count (build b6510)", async () => {
    const last = await lastEvent("llamacpp", { body: fixture("llamacpp-b6510-response.json") }, false);
    expect(last.usage).toEqual({ inputTokens: 14, cachedInputTokens: 13, cacheWriteTokens: 0, outputTokens: 326, reasoningTokens: 0 });
  });

  it("takes the whole usage from timings when the stream sends no usage object", async () => {
    const last = await lastEvent("llamacpp", sseEvents(fixture("llamacpp-b6510-stream.sse")));
    expect(last.type).toBe("done");
    expect(last.usage).toEqual({ inputTokens: 14, cachedInputTokens: 13, cacheWriteTokens: 0, outputTokens: 394, reasoningTokens: 0 });
  });

  it("reports 0 cached for a cold cache (build b7634)", async () => {
    const last = await lastEvent("llamacpp", { body: fixture("llamacpp-b7634-response.json") }, false);
    expect(last.usage).toEqual({ inputTokens: 11, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 14, reasoningTokens: 0 });
  });
});

describe("OpenRouter reasoning_details", () => {
  const recordedClaude = sseEvents(fixture("openrouter-claude-thinking-stream.sse"));
  const recordedSignature = /"signature":"(E[^"]+)"/.exec(fixture("openrouter-claude-thinking-stream.sse"))![1]!;

  it("joins the streamed fragments into one item with the Anthropic signature as sent", async () => {
    const last = await lastEvent("openrouter", recordedClaude);
    expect(last.type).toBe("done");
    const thinking = last.response!.content[0] as ThinkingPart;
    expect(thinking.thinking).toMatch(/^The question asks for the capital of France\. .* factual answer\.$/s);
    expect(JSON.parse(thinking.providerDetails!)).toEqual([
      { type: "reasoning.text", text: thinking.thinking, signature: recordedSignature, format: "anthropic-claude-v1", index: 0 },
    ]);
  });

  it("sends the items back byte for byte on the assistant turn of the tool loop", async () => {
    const last = await lastEvent("openrouter", recordedClaude);
    const thinking = last.response!.content[0] as ThinkingPart;
    const call = { type: "tool_call" as const, id: "call_1", name: "get_weather", argumentsText: '{"city":"Paris"}', arguments: { city: "Paris" } };
    const body = providerFor("openrouter", "http://127.0.0.1:9").serialize(
      request({ tools: [weatherTool], messages: [user("u", "Weather in Paris?"), assistant("a", [thinking, call]), toolResult("t", "call_1", "get_weather", "sunny")] }),
    ).body;
    expect(body).toContain(`"reasoning_details":${thinking.providerDetails},"tool_calls"`);
    expect(body).toContain(`"signature":"${recordedSignature}"`);
    expect(body).not.toContain("reasoning_content");
  });

  it("keeps OpenAI's encrypted reasoning item (openai/gpt-5.5) and returns it unchanged", () => {
    const recorded = JSON.parse(fixture("openrouter-gpt-5.5-encrypted-chunk.json")) as { choices: [{ delta: { reasoning_details: unknown[] } }] };
    const accumulator = new OpenAIResponseAccumulator();
    accumulator.apply(normalizeOpenAIChunk(recorded, "delta"));
    const [thinking] = accumulator.response().content as [ThinkingPart];
    expect(thinking).toEqual({ type: "thinking", thinking: "", providerDetails: JSON.stringify(recorded.choices[0].delta.reasoning_details) });
    const call = { type: "tool_call" as const, id: "call_DJPdcl5GG4KohNbp1MOlo8En", name: "get_weather", argumentsText: '{"city":"Paris"}', arguments: { city: "Paris" } };
    const { prefix } = convertToOpenAIMessages({ system: { staticText: "" }, messages: [assistant("a", [thinking, call])], reasoningRoundTrip: "strip" });
    expect(JSON.stringify(prefix[0])).toContain(`"reasoning_details":${JSON.stringify(recorded.choices[0].delta.reasoning_details)}`);
  });
});

describe("OpenRouter mid-stream errors", () => {
  it("keeps the usage an error chunk carries in the terminal error event", async () => {
    const recordedClaude = sseEvents(fixture("openrouter-claude-thinking-stream.sse"));
    const usage = (JSON.parse(recordedClaude.at(-2)!.slice("data: ".length)) as { usage: unknown }).usage;
    const documentedError = JSON.parse(fixture("openrouter-mid-stream-error.sse").slice("data: ".length)) as Record<string, unknown>;
    const last = await lastEvent("openrouter", [...recordedClaude.slice(0, 3), `data: ${JSON.stringify({ ...documentedError, usage })}\n\n`]);
    expect(last.type).toBe("error");
    expect(last.error?.message).toContain("Provider disconnected");
    expect(last.usage).toEqual({ inputTokens: 43, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 119, reasoningTokens: 82 });
    expect((last.partial!.content[0] as ThinkingPart).thinking).toBe("The question asks for the capital of France.");
  });
});

describe("DeepSeek thinking mode with tools", () => {
  // DeepSeek's answer when a tool-call turn lacks the field (deepseek-ai/deepseek-harness discussion #739).
  const rejection = { error: { message: "The reasoning_content in the thinking mode must be passed back to the API.", type: "invalid_request_error", param: null, code: "invalid_request_error" } };

  it("sends reasoning_content \"\" on a tool-call turn whose reasoning was empty, so the request is accepted", async () => {
    server = await startLoopbackServer((recorded) => {
      const body = JSON.parse(recorded.body) as { messages: Array<Record<string, unknown>> };
      const rejected = body.messages.some((message) => message.role === "assistant" && message.tool_calls !== undefined && typeof message.reasoning_content !== "string");
      if (rejected) return { status: 400, headers: jsonHeaders, body: JSON.stringify(rejection) };
      return { headers: jsonHeaders, body: JSON.stringify({ id: "ds", object: "chat.completion", created: 1, model: "deepseek-chat", choices: [{ index: 0, message: { role: "assistant", content: "Sunny." }, finish_reason: "stop" }], usage: { prompt_tokens: 50, completion_tokens: 2, total_tokens: 52, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 50 } }) };
    });
    const call = { type: "tool_call" as const, id: "call_0", name: "get_weather", argumentsText: '{"city":"Hangzhou"}', arguments: { city: "Hangzhou" } };
    const provider = providerFor("deepseek", server.url, false);
    const events = await collect(provider.stream(request({ tools: [weatherTool], messages: [user("u", "Weather?"), assistant("a", [call]), toolResult("t", "call_0", "get_weather", "sunny")] })));
    expect(events.at(-1)?.type).toBe("done");
    expect(server.requests[0]?.body).toContain('{"role":"assistant","content":null,"reasoning_content":"","tool_calls":[');
  });
});

describe("Groq's usage in x_groq", () => {
  it("reads the usage Groq sends as x_groq.usage on the finish chunk of a stream", async () => {
    const last = await lastEvent("openai", sseEvents(fixture("groq-gemma2-x-groq-usage-chunk.sse")));
    expect(last.type).toBe("done");
    expect(last.usage).toEqual({ inputTokens: 18, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 439, reasoningTokens: 0 });
  });
});

describe("gpt-oss on llama.cpp keeps its reasoning across tool calls", () => {
  // The second-turn request a client really sent to llama-server serving gpt-oss (accepted, and
  // rendered with the reasoning as the analysis message before the call: see the .harmony fixture).
  const recordedTurn2 = JSON.parse(fixture("llamacpp-gpt-oss-turn2-request.json")) as {
    messages: Array<{ role: string; content: string; reasoning_content?: string; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>; tool_call_id?: string }>;
    tools: Array<{ function: { name: string; description: string; parameters: Record<string, unknown> } }>;
  };
  const [system, question, , result] = recordedTurn2.messages;
  const runCommand = recordedTurn2.tools[0]!.function;

  async function secondRequest(model: string, reasoningRoundTrip?: "send" | "tool-calls" | "strip") {
    server = await startLoopbackServer([
      { headers: sseHeaders, chunks: sseEvents(fixture("llamacpp-gpt-oss-tool-call-stream.sse")) },
      { headers: sseHeaders, chunks: ['data: {"choices":[{"finish_reason":"stop","index":0,"delta":{"content":"It is 19:35."}}],"object":"chat.completion.chunk"}\n\n', "data: [DONE]\n\n"] },
    ]);
    const provider = createOpenAICompatible({ vendor: "llamacpp", model, baseURL: server.url, env: {}, ...(reasoningRoundTrip ? { reasoningRoundTrip } : {}) });
    const first = request({ system: { staticText: system!.content }, tools: [runCommand], messages: [user("u", question!.content)] });
    const done = (await collect(provider.stream(first))).at(-1) as { type: string; response: { content: AssistantPart[] } };
    expect(done.type).toBe("done");
    const turn2 = { ...first, messages: [...first.messages, assistant("a", done.response.content), toolResult("t", "rYFP", "run_command", result!.content)] };
    expect((await collect(provider.stream(turn2))).at(-1)?.type).toBe("done");
    return JSON.parse(server.requests[1]!.body) as { messages: Array<Record<string, unknown>>; tools: unknown };
  }

  it("sends reasoning_content back on the tool-calling turn of a gpt-oss model: the recorded second request, message for message", async () => {
    const sent = await secondRequest("gpt-oss-20b");
    // ctxkit sends `content: null` on a turn with only tool calls (the recorded client sent ""); newer
    // llama-server builds drop `content` from such a gpt-oss turn anyway.
    const expected = recordedTurn2.messages.map((message) => (message.tool_calls ? { ...message, content: null } : message));
    expect(sent.messages).toEqual(expected);
    expect(sent.messages[2]!.reasoning_content).toBe("We need to run date command.");
    expect(sent.tools).toEqual(recordedTurn2.tools);
  });

  it("matches the gpt-oss family by model id (llama-server aliases, GGUF repositories, Ollama tags)", () => {
    for (const model of ["ggml-org/gpt-oss-120b-GGUF", "GPT-OSS:20b"]) {
      expect(createOpenAICompatible({ vendor: "llamacpp", model, baseURL: "http://127.0.0.1:9", env: {} }).serialize(turnWithReasoning()).body).toContain('"reasoning_content":"Need the date."');
    }
  });

  it("keeps stripping for other models on llama.cpp (Qwen3's template drops it anyway), and the setting overrides the rule", async () => {
    const qwen = await secondRequest("Qwen3-8B-Q4_K_M.gguf");
    expect(qwen.messages[2]).not.toHaveProperty("reasoning_content");
    await server?.close();
    const overridden = await secondRequest("gpt-oss-20b", "strip");
    expect(overridden.messages[2]).not.toHaveProperty("reasoning_content");
  });

  it("sends no reasoning_content on a gpt-oss turn without tool calls (harmony drops a final answer's analysis)", () => {
    const provider = createOpenAICompatible({ vendor: "llamacpp", model: "gpt-oss-20b", baseURL: "http://127.0.0.1:9", env: {} });
    const answered = request({ messages: [user("u", "Hi"), { ...assistant("a", [{ type: "thinking", thinking: "Greet." }, { type: "text", text: "Hello!" }]), stopReason: "stop", rawStopReason: "stop" }, user("u2", "Bye")] });
    expect(provider.serialize(answered).body).not.toContain("reasoning_content");
  });
});

function turnWithReasoning() {
  const call = { type: "tool_call" as const, id: "c1", name: "run_command", argumentsText: '{"command":"date"}', arguments: { command: "date" } };
  return request({ messages: [user("u", "Time?"), assistant("a", [{ type: "thinking", thinking: "Need the date." }, call]), toolResult("t", "c1", "run_command", "19:35")] });
}

describe("Mistral's content chunks", () => {
  it("streams magistral's thinking chunks as thinking and its text chunks as the answer", async () => {
    const last = await lastEvent("openai", sseEvents(fixture("mistral-magistral-thinking-chunks.sse")));
    expect(last.type).toBe("done");
    expect(last.response?.content).toEqual([
      { type: "thinking", thinking: "'s a greeting, I should return a greeting" },
      { type: "text", text: "Hello! How can I help?" },
    ]);
    expect(last.usage).toEqual({ inputTokens: 9, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 22, reasoningTokens: 0 });
  });
});
