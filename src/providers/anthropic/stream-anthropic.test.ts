import { afterEach, describe, expect, it } from "vitest";
import { ContextOverflowError } from "../../types/index.js";
import { startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../../testing/loopback-server.js";
import type { ProviderEvent } from "../provider.js";
import { createAnthropic } from "./create-anthropic.js";
import { collect, terminal } from "./test-support/collect.js";
import {
  anthropicSse,
  assistant,
  blockDelta,
  blockStart,
  blockStop,
  messageDelta,
  messageStart,
  messageStop,
  ping,
  readFileTool,
  request,
  toolResult,
  user,
} from "./test-support/fixtures.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerFor(responses: ScriptedHttpResponse[]) {
  server = await startLoopbackServer(responses);
  return createAnthropic({ model: "claude-test", apiKey: "sk-ant-test", baseURL: `${server.url}/v1`, retry: { initialDelayMs: 1 } });
}

const doneOf = (events: ProviderEvent[]) => {
  const last = terminal(events);
  if (last.type !== "done") throw new Error(`expected done, got ${JSON.stringify(last)}`);
  return last;
};
const errorOf = (events: ProviderEvent[]) => {
  const last = terminal(events);
  if (last.type !== "error") throw new Error(`expected error, got ${JSON.stringify(last)}`);
  return last;
};

describe("Anthropic streaming", () => {
  it("streams text from the documented event sequence, split across arbitrary chunk boundaries", async () => {
    // Shape from https://docs.anthropic.com/en/docs/build-with-claude/streaming (basic streaming request).
    const raw =
      'event: message_start\ndata: {"type": "message_start", "message": {"id": "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY", "type": "message", "role": "assistant", "content": [], "model": "claude-test", "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 25, "output_tokens": 1}}}\n\n' +
      'event: content_block_start\ndata: {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}\n\n' +
      'event: ping\ndata: {"type": "ping"}\n\n' +
      'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hello"}}\n\n' +
      'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "!"}}\n\n' +
      'event: content_block_stop\ndata: {"type": "content_block_stop", "index": 0}\n\n' +
      'event: message_delta\ndata: {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence":null}, "usage": {"output_tokens": 15}}\n\n' +
      'event: message_stop\ndata: {"type": "message_stop"}\n\n';
    const chunks = [raw.slice(0, 90), raw.slice(90, 333), raw.slice(333, 601), raw.slice(601)];
    const provider = await providerFor([{ status: 200, headers: { "content-type": "text/event-stream" }, chunks }]);
    const events = await collect(provider.stream(request()));
    expect(events.slice(0, -1)).toEqual([
      { type: "start" },
      { type: "text_start", index: 0 },
      { type: "text_delta", index: 0, delta: "Hello" },
      { type: "text_delta", index: 0, delta: "!" },
      { type: "text_end", index: 0 },
    ]);
    const done = doneOf(events);
    expect(done.response).toEqual({ content: [{ type: "text", text: "Hello!" }], stopReason: "stop", rawStopReason: "end_turn", id: "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY", model: "claude-test" });
    expect(done.usage).toMatchObject({ inputTokens: 25, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 15, reasoningTokens: 0 });
    expect(done.usage.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    expect(done.usage.latencyMs).toBeGreaterThanOrEqual(done.usage.timeToFirstTokenMs ?? 0);
  });

  it("sends the documented headers to /v1/messages", async () => {
    const provider = await providerFor([anthropicSse([messageStart(), messageDelta("end_turn", 1), messageStop()])]);
    await collect(provider.stream(request()));
    const sent = server!.requests[0]!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["x-api-key"]).toBe("sk-ant-test");
    expect(sent.headers["anthropic-version"]).toBe("2023-06-01");
    expect(sent.headers["content-type"]).toBe("application/json");
  });

  it("keeps thinking with its signature and redacted thinking, and sends them back unchanged in the tool loop", async () => {
    const signature = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds/+sig==";
    const redacted = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP";
    const provider = await providerFor([
      anthropicSse([
        messageStart(),
        blockStart(0, { type: "thinking", thinking: "" }),
        blockDelta(0, { type: "thinking_delta", thinking: "I should read " }),
        blockDelta(0, { type: "thinking_delta", thinking: "the file.\n" }),
        blockDelta(0, { type: "signature_delta", signature }),
        blockStop(0),
        blockStart(1, { type: "redacted_thinking", data: redacted }),
        blockStop(1),
        blockStart(2, { type: "tool_use", id: "toolu_01", name: "read_file", input: {} }),
        blockDelta(2, { type: "input_json_delta", partial_json: "" }),
        blockDelta(2, { type: "input_json_delta", partial_json: '{"path": "a.txt"}' }),
        blockStop(2),
        messageDelta("tool_use", 80),
        messageStop(),
      ]),
      anthropicSse([messageStart(), blockStart(0, { type: "text", text: "" }), blockDelta(0, { type: "text_delta", text: "Done." }), messageDelta("end_turn", 2), messageStop()]),
    ]);
    const first = await collect(provider.stream(request({ tools: [readFileTool] })));
    expect(first.filter((event) => event.type.startsWith("thinking") || event.type.startsWith("tool_call_"))).toEqual([
      { type: "thinking_start", index: 0 },
      { type: "thinking_delta", index: 0, delta: "I should read " },
      { type: "thinking_delta", index: 0, delta: "the file.\n" },
      { type: "thinking_end", index: 0 },
      { type: "thinking_start", index: 1 },
      { type: "thinking_end", index: 1 },
      { type: "tool_call_start", index: 2, id: "toolu_01", name: "read_file" },
      { type: "tool_call_delta", index: 2, delta: '{"path": "a.txt"}' },
      { type: "tool_call_end", index: 2 },
    ]);
    const response = doneOf(first).response;
    expect(response).toEqual({
      content: [
        { type: "thinking", thinking: "I should read the file.\n", signature },
        { type: "thinking", thinking: "", redactedData: redacted },
        { type: "tool_call", id: "toolu_01", name: "read_file", argumentsText: '{"path": "a.txt"}', arguments: { path: "a.txt" } },
      ],
      stopReason: "tool_calls",
      rawStopReason: "tool_use",
      id: "msg_1",
      model: "claude-test",
    });

    const loop = request({ tools: [readFileTool], messages: [user("hi"), assistant(...response.content), toolResult("toolu_01", "contents")] });
    expect(doneOf(await collect(provider.stream(loop))).response.content).toEqual([{ type: "text", text: "Done." }]);
    const sentMessages = server!.requests[1]!.body.slice(server!.requests[1]!.body.indexOf('"messages":'));
    expect(sentMessages).toBe(
      '"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]},' +
        '{"role":"assistant","content":[' +
        `{"type":"thinking","thinking":"I should read the file.\\n","signature":"${signature}"},` +
        `{"type":"redacted_thinking","data":"${redacted}"},` +
        '{"type":"tool_use","id":"toolu_01","name":"read_file","input":{"path":"a.txt"}}]},' +
        '{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"contents"}]}]}',
    );
  });

  it("assembles parallel tool calls from fragmented input_json_delta, indexed by their position in the response", async () => {
    const provider = await providerFor([
      anthropicSse([
        messageStart(),
        blockStart(0, { type: "text", text: "" }),
        blockDelta(0, { type: "text_delta", text: "Reading both." }),
        blockStop(0),
        blockStart(1, { type: "tool_use", id: "toolu_a", name: "read_file", input: {} }),
        blockDelta(1, { type: "input_json_delta", partial_json: '{"pa' }),
        blockStart(2, { type: "tool_use", id: "toolu_b", name: "list_files", input: {} }),
        blockDelta(1, { type: "input_json_delta", partial_json: 'th": "a' }),
        blockDelta(1, { type: "input_json_delta", partial_json: '.txt"}' }),
        blockStop(1),
        blockStop(2),
        ping(),
        messageDelta("tool_use", 60),
        messageStop(),
      ]),
    ]);
    const events = await collect(provider.stream(request()));
    expect(events.filter((event) => event.type.startsWith("tool_call"))).toEqual([
      { type: "tool_call_start", index: 1, id: "toolu_a", name: "read_file" },
      { type: "tool_call_delta", index: 1, delta: '{"pa' },
      { type: "tool_call_start", index: 2, id: "toolu_b", name: "list_files" },
      { type: "tool_call_delta", index: 1, delta: 'th": "a' },
      { type: "tool_call_delta", index: 1, delta: '.txt"}' },
      { type: "tool_call_end", index: 1 },
      // A tool without parameters streams no input at all; the end says its arguments are "{}".
      { type: "tool_call_end", index: 2, argumentsText: "{}" },
    ]);
    expect(doneOf(events).response.content).toEqual([
      { type: "text", text: "Reading both." },
      { type: "tool_call", id: "toolu_a", name: "read_file", argumentsText: '{"path": "a.txt"}', arguments: { path: "a.txt" } },
      // A tool without parameters streams no input at all.
      { type: "tool_call", id: "toolu_b", name: "list_files", argumentsText: "{}", arguments: {} },
    ]);
  });

  it("reports cache reads and writes from message_start and output tokens from message_delta", async () => {
    const provider = await providerFor([
      anthropicSse([
        messageStart({ input_tokens: 21, cache_creation_input_tokens: 188, cache_read_input_tokens: 2048, output_tokens: 1 }),
        blockStart(0, { type: "text", text: "ok" }),
        messageDelta("end_turn", 503),
        messageStop(),
      ]),
    ]);
    const done = doneOf(await collect(provider.stream(request())));
    expect(done.usage).toMatchObject({ inputTokens: 2257, cachedInputTokens: 2048, cacheWriteTokens: 188, outputTokens: 503 });
    expect(done.response.content).toEqual([{ type: "text", text: "ok" }]);
  });
});

describe("Anthropic failures", () => {
  const overloaded = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';

  it("retries 529 overloaded_error before the stream starts, then succeeds", async () => {
    const provider = await providerFor([
      { status: 529, headers: { "content-type": "application/json" }, body: overloaded },
      anthropicSse([messageStart(), blockStart(0, { type: "text", text: "" }), blockDelta(0, { type: "text_delta", text: "hi" }), messageDelta("end_turn", 1), messageStop()]),
    ]);
    const events = await collect(provider.stream(request()));
    expect(doneOf(events).response.content).toEqual([{ type: "text", text: "hi" }]);
    expect(server!.requests).toHaveLength(2);
    expect(server!.requests[1]!.body).toBe(server!.requests[0]!.body);
  });

  it("turns 400 'prompt is too long' into ContextOverflowError without retrying", async () => {
    const provider = await providerFor([
      { status: 400, body: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"}}' },
    ]);
    const failure = errorOf(await collect(provider.stream(request())));
    expect(failure.error).toBeInstanceOf(ContextOverflowError);
    expect(failure.error.code).toBe("context_overflow");
    expect((failure.error as ContextOverflowError).vendorMessage).toBe("prompt is too long: 208310 tokens > 200000 maximum");
    expect(failure.partial).toEqual({ content: [], stopReason: "error" });
    expect(server!.requests).toHaveLength(1);
  });

  // Anthropic's 413 request_too_large ended as a plain HTTP error, so no compaction retry happened.
  it("turns 413 request_too_large into ContextOverflowError without retrying", async () => {
    const provider = await providerFor([
      {
        status: 413,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "error", error: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." } }),
      },
    ]);
    const failure = errorOf(await collect(provider.stream(request())));
    expect(failure.error).toBeInstanceOf(ContextOverflowError);
    expect(server!.requests).toHaveLength(1);
  });

  it("ends with an error event carrying the partial response when the stream sends event: error", async () => {
    const response = anthropicSse([messageStart(), blockStart(0, { type: "text", text: "" }), blockDelta(0, { type: "text_delta", text: "Half" })]);
    response.chunks!.push(`event: error\ndata: ${overloaded}\n\n`);
    const provider = await providerFor([response]);
    const failure = errorOf(await collect(provider.stream(request())));
    expect(failure.error.code).toBe("provider_http_error");
    expect(failure.error.isRetryable).toBe(true);
    expect(failure.error.message).toContain("overloaded_error");
    expect(failure.partial).toEqual({ content: [{ type: "text", text: "Half" }], stopReason: "error", id: "msg_1", model: "claude-test" });
    expect(failure.usage?.inputTokens).toBe(10);
  });

  it("ends with a connection error and the partial response when the connection is cut mid-stream", async () => {
    const response = anthropicSse([
      messageStart(),
      blockStart(0, { type: "tool_use", id: "toolu_x", name: "read_file", input: {} }),
      blockDelta(0, { type: "input_json_delta", partial_json: '{"path": "a' }),
    ]);
    const provider = await providerFor([{ ...response, delayMs: 20, destroyAfterChunks: true }]);
    const failure = errorOf(await collect(provider.stream(request())));
    expect(failure.error.code).toBe("provider_connection_error");
    expect(failure.error.message).toContain("broke mid-stream");
    expect(server!.requests).toHaveLength(1);
    expect(failure.partial.content).toEqual([
      { type: "tool_call", id: "toolu_x", name: "read_file", argumentsText: '{"path": "a', arguments: undefined },
    ]);
  });

  it("treats a stream that ends without message_stop as incomplete", async () => {
    const provider = await providerFor([anthropicSse([messageStart(), blockStart(0, { type: "text", text: "x" })])]);
    const failure = errorOf(await collect(provider.stream(request())));
    expect(failure.error.code).toBe("provider_connection_error");
    expect(failure.partial.content).toEqual([{ type: "text", text: "x" }]);
  });

  it("names what a 200 answer without a single event held instead of asking for a retry (a server or proxy that does not stream)", async () => {
    const whole = { id: "msg_1", type: "message", role: "assistant", content: [{ type: "text", text: "Hi" }], model: "claude-test", stop_reason: "end_turn", usage: { input_tokens: 5, output_tokens: 1 } };
    const provider = await providerFor([
      { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(whole) },
      { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }) },
    ]);
    const answered = errorOf(await collect(provider.stream(request())));
    expect(answered.error.code).toBe("provider_response_invalid");
    expect(answered.error.message).toMatch(/without a single server-sent event.*"type":"message".*streams/s);
    const refused = errorOf(await collect(provider.stream(request())));
    expect(refused.error.code).toBe("provider_response_invalid");
    expect(refused.error.message).toContain("it sent: Overloaded.");
    // Each was one request: an answer that cannot become a stream is not retried.
    expect(server!.requests).toHaveLength(2);
  });

  it("still calls an empty 200 body a stream cut short, worth a retry", async () => {
    const provider = await providerFor([{ status: 200, headers: { "content-type": "text/event-stream" }, body: "" }]);
    const failure = errorOf(await collect(provider.stream(request())));
    expect(failure.error.code).toBe("provider_connection_error");
    expect(failure.error.isRetryable).toBe(true);
  });

  it("ends with code aborted and the partial response when the caller aborts", async () => {
    const response = anthropicSse([
      messageStart(),
      blockStart(0, { type: "text", text: "" }),
      blockDelta(0, { type: "text_delta", text: "Partial" }),
      blockDelta(0, { type: "text_delta", text: " never" }),
      messageStop(),
    ]);
    const provider = await providerFor([{ ...response, delayMs: 50 }]);
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    for await (const event of provider.stream(request(), controller.signal)) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    const failure = errorOf(events);
    expect(failure.error.code).toBe("aborted");
    expect(failure.partial).toEqual({ content: [{ type: "text", text: "Partial" }], stopReason: "aborted", id: "msg_1", model: "claude-test" });
  });

  it("reports provider_response_invalid for an event that is not JSON", async () => {
    const provider = await providerFor([{ status: 200, chunks: ["event: message_start\ndata: {not json\n\n"] }]);
    const failure = errorOf(await collect(provider.stream(request())));
    expect(failure.error.code).toBe("provider_response_invalid");
  });

  it("reports provider_response_invalid for a delta of a block that never started", async () => {
    const provider = await providerFor([anthropicSse([messageStart(), blockDelta(3, { type: "text_delta", text: "x" }), messageStop()])]);
    expect(errorOf(await collect(provider.stream(request()))).error.code).toBe("provider_response_invalid");
  });

  // The failure a fuzzed stream found: a second content_block_start at index 0 replaced the text
  // block, so 64 streamed characters became text "" with no error.
  it("fails visibly, keeping the streamed text, when content_block_start reuses an index in use", async () => {
    const streamed = "x".repeat(64);
    const provider = await providerFor([
      anthropicSse([
        messageStart(),
        blockStart(0, { type: "text", text: "" }),
        blockDelta(0, { type: "text_delta", text: streamed }),
        blockStart(0, { type: "text", text: "" }),
        messageStop(),
      ]),
    ]);
    const failure = errorOf(await collect(provider.stream(request())));
    expect(failure.error.code).toBe("provider_response_invalid");
    expect(failure.error.message).toContain("index 0, which is already in use");
    expect(failure.partial.content).toEqual([{ type: "text", text: streamed }]);
  });

  it("ends with a connection error when nothing listens", async () => {
    const provider = createAnthropic({ model: "m", apiKey: "k", baseURL: "http://127.0.0.1:1/v1", retry: { maxRetries: 0 } });
    const events = await collect(provider.stream(request()));
    expect(events).toHaveLength(1);
    expect(errorOf(events).error.code).toBe("provider_connection_error");
  });
});
