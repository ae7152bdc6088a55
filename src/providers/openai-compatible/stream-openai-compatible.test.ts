import { afterEach, describe, expect, it } from "vitest";
import { sseChunks, startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
import { createOpenAICompatible } from "./create-openai-compatible.js";
import { assistant, collect, jsonHeaders, request, sseHeaders, toolResult, user, weatherTool, withoutTimings } from "./test-support/request-fixtures.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
});

describe("streamOpenAICompatible", () => {
  it("sends the exact serialized body with auth and custom headers, and streams text", async () => {
    server = await startLoopbackServer([
      { headers: sseHeaders, chunks: sseChunks([chunk({ role: "assistant", content: "" }), chunk({ content: "Hello" }), chunk({}, "stop")], { done: true }) },
    ]);
    const provider = createOpenAICompatible({
      model: "gpt-4o-mini",
      apiKey: "sk-test",
      baseURL: `${server.url}/v1/`,
      headers: { "X-Title": "ctxkit tests" },
      env: {},
    });
    const modelRequest = request({ tools: [weatherTool], tail: user("tail", "[status] turn 1", "harness"), settings: { temperature: 0 } });
    const events = await collect(provider.stream(modelRequest));

    expect(withoutTimings(events)).toEqual([
      { type: "start" },
      { type: "text_start", index: 0 },
      { type: "text_delta", index: 0, delta: "Hello" },
      { type: "text_end", index: 0 },
      {
        type: "done",
        response: { content: [{ type: "text", text: "Hello" }], stopReason: "stop", rawStopReason: "stop", id: "chatcmpl-1", model: "m" },
        usage: { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 },
      },
    ]);
    const recorded = server.requests[0];
    expect(recorded?.method).toBe("POST");
    expect(recorded?.path).toBe("/v1/chat/completions");
    expect(recorded?.headers.authorization).toBe("Bearer sk-test");
    expect(recorded?.headers["content-type"]).toBe("application/json");
    expect(recorded?.headers["x-title"]).toBe("ctxkit tests");
    expect(recorded?.body).toBe(provider.serialize(modelRequest).body);
    expect(JSON.parse(recorded?.body ?? "")).toEqual({
      model: "gpt-4o-mini",
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0,
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Current weather for a city.",
            parameters: { properties: { city: { type: "string" } }, required: ["city"], type: "object" },
          },
        },
      ],
      messages: [
        { role: "system", content: "You are a helpful agent." },
        { role: "user", content: "Hello" },
        { role: "user", content: "[status] turn 1" },
      ],
    });
  });

  it("streams DeepSeek reasoning_content as thinking, measures timings, and sends reasoning back in the tool loop", async () => {
    const deepseekChunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
      ...chunk(delta, finishReason),
      model: "deepseek-reasoner",
      system_fingerprint: "fp_ds",
    });
    server = await startLoopbackServer([
      {
        headers: sseHeaders,
        delayMs: 5,
        chunks: sseChunks(
          [
            deepseekChunk({ role: "assistant", content: null, reasoning_content: "" }),
            deepseekChunk({ content: null, reasoning_content: "The user " }),
            deepseekChunk({ content: null, reasoning_content: "greets." }),
            deepseekChunk({ content: "Hi!", reasoning_content: null }),
            deepseekChunk({ content: "" }, "stop"),
            { ...deepseekChunk({}), choices: [], usage: { prompt_tokens: 10, completion_tokens: 30, total_tokens: 40, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 10, completion_tokens_details: { reasoning_tokens: 28 } } },
          ],
          { done: true },
        ),
      },
    ]);
    const provider = createOpenAICompatible({ vendor: "deepseek", model: "deepseek-reasoner", baseURL: server.url, env: { DEEPSEEK_API_KEY: "sk-ds" } });
    const events = await collect(provider.stream(request()));

    expect(withoutTimings(events)).toEqual([
      { type: "start" },
      { type: "thinking_start", index: 0 },
      { type: "thinking_delta", index: 0, delta: "The user " },
      { type: "thinking_delta", index: 0, delta: "greets." },
      { type: "text_start", index: 1 },
      { type: "text_delta", index: 1, delta: "Hi!" },
      { type: "thinking_end", index: 0 },
      { type: "text_end", index: 1 },
      {
        type: "done",
        response: { content: [{ type: "thinking", thinking: "The user greets." }, { type: "text", text: "Hi!" }], stopReason: "stop", rawStopReason: "stop", id: "chatcmpl-1", model: "deepseek-reasoner" },
        usage: { inputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 30, reasoningTokens: 28 },
      },
    ]);
    const last = events.at(-1);
    if (last?.type !== "done") throw new Error("expected done");
    expect(last.usage.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    expect(last.usage.latencyMs).toBeGreaterThanOrEqual(last.usage.timeToFirstTokenMs ?? 0);

    const toolLoop = request({
      messages: [
        user("m1", "Weather?"),
        assistant("m2", [
          { type: "thinking", thinking: "Call the tool." },
          { type: "tool_call", id: "call_1", name: "get_weather", argumentsText: '{"city":"Paris"}', arguments: { city: "Paris" } },
        ]),
        toolResult("m3", "call_1", "get_weather", "18°C"),
      ],
    });
    expect(JSON.parse(provider.serialize(toolLoop).body).messages[2]).toEqual({
      role: "assistant",
      content: null,
      reasoning_content: "Call the tool.",
      tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
    });
  });

  it("reads Ollama's delta.reasoning as thinking", async () => {
    server = await startLoopbackServer([
      { headers: sseHeaders, chunks: sseChunks([chunk({ role: "assistant", content: "", reasoning: "hmm" }), chunk({ content: "ok" }, "stop")], { done: true }) },
    ]);
    const provider = createOpenAICompatible({ vendor: "ollama", model: "qwen3:0.6b", baseURL: `${server.url}/v1`, env: {} });
    const events = await collect(provider.stream(request()));
    expect(events.map((event) => event.type)).toEqual(["start", "thinking_start", "thinking_delta", "text_start", "text_delta", "thinking_end", "text_end", "done"]);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("assembles two parallel tool calls interleaved by index with fragmented arguments", async () => {
    const toolDelta = (calls: unknown[]) => chunk({ tool_calls: calls });
    server = await startLoopbackServer([
      {
        headers: sseHeaders,
        chunks: sseChunks(
          [
            chunk({ role: "assistant", content: null }),
            toolDelta([{ index: 0, id: "call_paris", type: "function", function: { name: "get_weather", arguments: "" } }]),
            toolDelta([{ index: 0, function: { arguments: '{"ci' } }]),
            toolDelta([{ index: 1, id: "call_oslo", type: "function", function: { name: "get_weather", arguments: '{"city"' } }]),
            toolDelta([{ index: 0, function: { arguments: 'ty": "Paris"}' } }]),
            toolDelta([{ index: 1, function: { arguments: ':"Oslo"}' } }]),
            chunk({}, "tool_calls"),
          ],
          { done: true },
        ),
      },
    ]);
    const provider = createOpenAICompatible({ vendor: "vllm", model: "m", baseURL: server.url, env: {} });
    const events = await collect(provider.stream(request({ tools: [weatherTool] })));

    expect(withoutTimings(events)).toEqual([
      { type: "start" },
      { type: "tool_call_start", index: 0, id: "call_paris", name: "get_weather" },
      { type: "tool_call_delta", index: 0, delta: '{"ci' },
      { type: "tool_call_start", index: 1, id: "call_oslo", name: "get_weather" },
      { type: "tool_call_delta", index: 1, delta: '{"city"' },
      { type: "tool_call_delta", index: 0, delta: 'ty": "Paris"}' },
      { type: "tool_call_delta", index: 1, delta: ':"Oslo"}' },
      { type: "tool_call_end", index: 0 },
      { type: "tool_call_end", index: 1 },
      {
        type: "done",
        response: {
          content: [
            { type: "tool_call", id: "call_paris", name: "get_weather", argumentsText: '{"city": "Paris"}', arguments: { city: "Paris" } },
            { type: "tool_call", id: "call_oslo", name: "get_weather", argumentsText: '{"city":"Oslo"}', arguments: { city: "Oslo" } },
          ],
          stopReason: "tool_calls",
          rawStopReason: "tool_calls",
          id: "chatcmpl-1",
          model: "m",
        },
        usage: { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 },
      },
    ]);
  });

  it("turns a non-streaming JSON response into the same events", async () => {
    const completion = {
      id: "chatcmpl-2",
      object: "chat.completion",
      created: 1,
      model: "kimi-k2",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Checking.",
            reasoning_content: "Need the weather.",
            tool_calls: [{ id: "get_weather:0", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, cached_tokens: 64 },
    };
    server = await startLoopbackServer([{ headers: jsonHeaders, body: JSON.stringify(completion) }]);
    const provider = createOpenAICompatible({ vendor: "kimi", model: "kimi-k2", baseURL: server.url, stream: false, env: { MOONSHOT_API_KEY: "k" } });
    const events = await collect(provider.stream(request({ tools: [weatherTool] })));

    expect(withoutTimings(events)).toEqual([
      { type: "start" },
      { type: "thinking_start", index: 0 },
      { type: "thinking_delta", index: 0, delta: "Need the weather." },
      { type: "text_start", index: 1 },
      { type: "text_delta", index: 1, delta: "Checking." },
      { type: "tool_call_start", index: 2, id: "get_weather:0", name: "get_weather" },
      { type: "tool_call_delta", index: 2, delta: '{"city":"Paris"}' },
      { type: "thinking_end", index: 0 },
      { type: "text_end", index: 1 },
      { type: "tool_call_end", index: 2 },
      {
        type: "done",
        response: {
          content: [
            { type: "thinking", thinking: "Need the weather." },
            { type: "text", text: "Checking." },
            { type: "tool_call", id: "get_weather:0", name: "get_weather", argumentsText: '{"city":"Paris"}', arguments: { city: "Paris" } },
          ],
          stopReason: "tool_calls",
          rawStopReason: "tool_calls",
          id: "chatcmpl-2",
          model: "kimi-k2",
        },
        usage: { inputTokens: 100, cachedInputTokens: 64, cacheWriteTokens: 0, outputTokens: 20, reasoningTokens: 0 },
      },
    ]);
    const done = events.at(-1);
    expect(done?.type === "done" && done.usage.timeToFirstTokenMs).toBe(undefined);
    expect(JSON.parse(server.requests[0]?.body ?? "").stream).toBe(false);
    expect(server.requests[0]?.body).toBe(provider.serialize(request({ tools: [weatherTool] })).body);
  });

  it("reads a JSON answer from a server that ignores stream: true", async () => {
    const completion = { choices: [{ index: 0, message: { role: "assistant", content: "plain" }, finish_reason: "stop" }] };
    server = await startLoopbackServer([{ headers: jsonHeaders, body: JSON.stringify(completion) }]);
    const provider = createOpenAICompatible({ vendor: "llamacpp", model: "m", baseURL: server.url, env: {} });
    const events = await collect(provider.stream(request()));
    expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
  });
});
