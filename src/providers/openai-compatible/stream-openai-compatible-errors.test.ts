import { afterEach, describe, expect, it } from "vitest";
import { sseChunks, startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
import { ContextOverflowError, ProviderHttpError } from "../../types/index.js";
import type { ProviderEvent } from "../provider.js";
import { createOpenAICompatible } from "./create-openai-compatible.js";
import { collect, jsonHeaders, request, sseHeaders } from "./test-support/request-fixtures.js";

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

function providerFor(url: string) {
  return createOpenAICompatible({ model: "gpt-4o-mini", baseURL: url, apiKey: "sk-test", retry: { initialDelayMs: 1, maxRetries: 2 }, env: {} });
}

function terminal(events: ProviderEvent[]): Extract<ProviderEvent, { type: "error" }> {
  const last = events.at(-1);
  expect(events.filter((event) => event.type === "error" || event.type === "done")).toHaveLength(1);
  if (last?.type !== "error") throw new Error(`expected a terminal error event, got ${JSON.stringify(last)}`);
  return last;
}

describe("streamOpenAICompatible failures", () => {
  it("retries a 429 after the server's retry-after-ms, then streams", async () => {
    server = await startLoopbackServer([
      { status: 429, headers: { ...jsonHeaders, "retry-after-ms": "10" }, body: JSON.stringify({ error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }) },
      { headers: sseHeaders, chunks: sseChunks([chunk({ content: "ok" }, "stop")], { done: true }) },
    ]);
    const events = await collect(providerFor(server.url).stream(request()));
    expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body).toBe(server.requests[0]?.body);
  });

  it("reports context_length_exceeded as a ContextOverflowError without retrying", async () => {
    const vendorMessage = "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.";
    server = await startLoopbackServer([
      { status: 400, headers: jsonHeaders, body: JSON.stringify({ error: { message: vendorMessage, type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } }) },
    ]);
    const error = terminal(await collect(providerFor(server.url).stream(request()))).error;
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect((error as ContextOverflowError).vendorMessage).toBe(vendorMessage);
    expect(error.code).toBe("context_overflow");
    expect(server.requests).toHaveLength(1);
  });

  // The trial that found it: a 429 "Too many tokens per minute" was taken for an overflow (the
  // wording matched) and not retried; a Gemini or SGLang overflow ended as a plain HTTP error.
  it("retries a 429 whose message mentions too many tokens, instead of calling it an overflow", async () => {
    server = await startLoopbackServer([
      { status: 429, headers: { ...jsonHeaders, "retry-after-ms": "10" }, body: JSON.stringify({ error: { message: "Too many tokens per minute", code: "rate_limit_exceeded" } }) },
      { headers: sseHeaders, chunks: sseChunks([chunk({ content: "ok" }, "stop")], { done: true }) },
    ]);
    const events = await collect(providerFor(server.url).stream(request()));
    expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
    expect(server.requests).toHaveLength(2);
  });

  it("reports Gemini's and SGLang's overflow wordings as ContextOverflowError", async () => {
    for (const message of [
      "The input token count (1594712) exceeds the maximum number of tokens allowed (1048576).",
      "The input (40000 tokens) is longer than the model's context length (32768 tokens).",
    ]) {
      server = await startLoopbackServer([{ status: 400, headers: jsonHeaders, body: JSON.stringify({ error: { message } }) }]);
      const error = terminal(await collect(providerFor(server.url).stream(request()))).error;
      expect(error).toBeInstanceOf(ContextOverflowError);
      await server.close();
      server = undefined;
    }
  });

  it("reports a 401 with a hint to check the API key", async () => {
    server = await startLoopbackServer([
      { status: 401, headers: jsonHeaders, body: JSON.stringify({ error: { message: "Incorrect API key provided: sk-test.", type: "invalid_request_error", code: "invalid_api_key" } }) },
    ]);
    const event = terminal(await collect(providerFor(server.url).stream(request())));
    expect(event.error).toBeInstanceOf(ProviderHttpError);
    expect((event.error as ProviderHttpError).status).toBe(401);
    expect(event.error.message).toContain("Incorrect API key provided");
    expect(event.error.message).toContain("`apiKey` setting");
    expect(event.partial).toEqual({ content: [], stopReason: "error" });
    expect(server.requests).toHaveLength(1);
  });

  it("ends with provider_connection_error and the partial text when the connection is cut mid-stream", async () => {
    server = await startLoopbackServer([
      // delayMs lets each chunk reach the client before the socket is destroyed.
      { headers: sseHeaders, delayMs: 20, chunks: sseChunks([chunk({ content: "Partial " }), chunk({ content: "answer" })]), destroyAfterChunks: true },
    ]);
    const events = await collect(providerFor(server.url).stream(request()));
    expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    const event = terminal(events);
    expect(event.error.code).toBe("provider_connection_error");
    expect(event.error.isRetryable).toBe(true);
    expect(event.partial).toEqual({ content: [{ type: "text", text: "Partial answer" }], stopReason: "error", id: "chatcmpl-1", model: "m" });
  });

  it("treats a stream that ends without [DONE] or a finish_reason as cut", async () => {
    server = await startLoopbackServer([{ headers: sseHeaders, chunks: sseChunks([chunk({ content: "Half" })]) }]);
    const event = terminal(await collect(providerFor(server.url).stream(request())));
    expect(event.error.code).toBe("provider_connection_error");
    expect(event.partial.content).toEqual([{ type: "text", text: "Half" }]);
  });

  it("ends with an aborted error and the partial response when the caller aborts mid-stream", async () => {
    server = await startLoopbackServer([
      { headers: sseHeaders, delayMs: 50, chunks: sseChunks([chunk({ content: "one " }), chunk({ content: "two " }), chunk({ content: "three" }, "stop")], { done: true }) },
    ]);
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    for await (const event of providerFor(server.url).stream(request(), controller.signal)) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    const event = terminal(events);
    expect(event.error.code).toBe("aborted");
    expect(event.partial).toEqual({ content: [{ type: "text", text: "one " }], stopReason: "aborted", id: "chatcmpl-1", model: "m" });
  });

  it("sends nothing when the signal is already aborted", async () => {
    server = await startLoopbackServer([{ headers: sseHeaders, chunks: [] }]);
    const controller = new AbortController();
    controller.abort();
    const event = terminal(await collect(providerFor(server.url).stream(request(), controller.signal)));
    expect(event.error.code).toBe("aborted");
    expect(server.requests).toHaveLength(0);
  });

  it("reports a malformed chunk as provider_response_invalid, keeping what came before", async () => {
    server = await startLoopbackServer([{ headers: sseHeaders, chunks: [...sseChunks([chunk({ content: "fine" })]), 'data: {"choices": [\n\n'] }]);
    const event = terminal(await collect(providerFor(server.url).stream(request())));
    expect(event.error.code).toBe("provider_response_invalid");
    expect(event.partial.content).toEqual([{ type: "text", text: "fine" }]);
  });

  it("reports an error object sent as an SSE data event (OpenRouter mid-stream errors)", async () => {
    server = await startLoopbackServer([
      {
        headers: sseHeaders,
        chunks: sseChunks([chunk({ content: "So far" }), { id: "gen-1", object: "chat.completion.chunk", created: 1, model: "m", provider: "OpenAI", error: { code: "server_error", message: "Provider disconnected unexpectedly" }, choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }] }]),
      },
    ]);
    const event = terminal(await collect(providerFor(server.url).stream(request())));
    expect(event.error.code).toBe("provider_http_error");
    expect(event.error.message).toContain("Provider disconnected unexpectedly");
    expect(event.partial.content).toEqual([{ type: "text", text: "So far" }]);
  });

  it("recognises a context overflow reported inside the stream", async () => {
    server = await startLoopbackServer([
      { headers: sseHeaders, chunks: sseChunks([{ error: { message: "the request exceeds the available context size, try increasing it", type: "exceed_context_size_error", code: 400 } }]) },
    ]);
    const event = terminal(await collect(providerFor(server.url).stream(request())));
    expect(event.error).toBeInstanceOf(ContextOverflowError);
  });

  it("reports keep-alive comments as nothing", async () => {
    server = await startLoopbackServer([
      { headers: sseHeaders, chunks: [": keep-alive\n\n", ...sseChunks([chunk({ content: "x" }, "stop")], { done: true }), ": trailing\n\n"] },
    ]);
    const events = await collect(providerFor(server.url).stream(request()));
    expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
  });

  it("reports an invalid tool definition as an error event without sending anything", async () => {
    server = await startLoopbackServer([{ headers: sseHeaders, chunks: [] }]);
    const badTools = [{ name: "has space", description: "", parameters: { type: "object" } }];
    const event = terminal(await collect(providerFor(server.url).stream(request({ tools: badTools }))));
    expect(event.error.code).toBe("tool_definition_invalid");
    expect(server.requests).toHaveLength(0);
  });

  it("reports an unreachable server as provider_connection_error", async () => {
    server = await startLoopbackServer([]);
    const url = server.url;
    await server.close();
    server = undefined;
    const provider = createOpenAICompatible({ vendor: "vllm", model: "m", baseURL: url, retry: { maxRetries: 0 }, env: {} });
    const event = terminal(await collect(provider.stream(request())));
    expect(event.error.code).toBe("provider_connection_error");
    expect(event.error.message).toContain(url);
  });

  // A library user's base URL pointing at another JSON API used to end the run as an empty final answer.
  it("refuses a JSON answer that is not a chat completion (no choices) as provider_response_invalid", async () => {
    server = await startLoopbackServer([{ headers: jsonHeaders, body: JSON.stringify({ weird: true }) }]);
    const event = terminal(await collect(providerFor(server.url).stream(request())));
    expect(event.error).toMatchObject({ code: "provider_response_invalid", message: expect.stringContaining("not a chat completion (no `choices`)") });
  });

  it("bounds a JSON answer by maxEventCharacters, as a streamed event is", async () => {
    server = await startLoopbackServer([{ headers: jsonHeaders, body: JSON.stringify({ choices: [{ index: 0, message: { content: "x".repeat(5_000) }, finish_reason: "stop" }] }) }]);
    const provider = createOpenAICompatible({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test", maxEventCharacters: 1_000, env: {} });
    const event = terminal(await collect(provider.stream(request())));
    expect(event.error).toMatchObject({ code: "provider_event_too_large", message: expect.stringContaining("maxEventCharacters") });
  });
});
