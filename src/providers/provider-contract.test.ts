/**
 * One contract, every provider: the behaviour the agent loop relies on, checked against each
 * provider through its real wire format (a loopback HTTP server for the HTTP providers).
 */
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../testing/loopback-server.js";
import { createAnthropic } from "./anthropic/index.js";
import { createOpenAICompatible } from "./openai-compatible/index.js";
import { createOpenAIResponses } from "./openai-responses/index.js";
import type { Provider, ProviderEvent } from "./provider.js";
import { checkProviderContract, providerSpecificationVersion } from "./check-provider-contract.js";
import { createScriptedProvider } from "./scripted/index.js";
import type { AssistantMessage, ModelRequest, ToolMessage, UserMessage } from "../types/index.js";

interface Scenario {
  text: string;
  toolCalls: Array<{ id: string; name: string; argumentsText: string }>;
  usage: { input: number; cached: number; output: number };
}

interface Harness {
  name: string;
  provider(responses: ScriptedHttpResponse[] | Scenario): Promise<Provider>;
  wire(scenario: Scenario): ScriptedHttpResponse;
  failure: ScriptedHttpResponse;
}

let servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(responses: ScriptedHttpResponse[]): Promise<string> {
  const server = await startLoopbackServer(responses);
  servers.push(server);
  return server.url;
}

const sse = (chunks: unknown[], named = false): ScriptedHttpResponse => ({
  status: 200,
  headers: { "content-type": "text/event-stream" },
  chunks: chunks.map((chunk) =>
    named ? `event: ${(chunk as { type: string }).type}\ndata: ${JSON.stringify(chunk)}\n\n` : `data: ${typeof chunk === "string" ? chunk : JSON.stringify(chunk)}\n\n`,
  ),
  delayMs: 2,
});

const split = (text: string, size: number) => text.match(new RegExp(`[\\s\\S]{1,${size}}`, "g")) ?? [];

const openAIHarness: Harness = {
  name: "openai-compatible",
  async provider(responses) {
    const url = await serve(responses as ScriptedHttpResponse[]);
    return createOpenAICompatible({ vendor: "vllm", model: "m", baseURL: `${url}/v1`, retry: { maxRetries: 0 } });
  },
  wire({ text, toolCalls, usage }) {
    const chunk = (delta: unknown, finish: string | null = null) => ({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });
    return sse([
      chunk({ role: "assistant", content: "" }),
      ...split(text, 5).map((piece) => chunk({ content: piece })),
      ...toolCalls.flatMap((call, index) => [
        chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
        ...split(call.argumentsText, 4).map((piece) => chunk({ tool_calls: [{ index, function: { arguments: piece } }] })),
      ]),
      chunk({}, toolCalls.length > 0 ? "tool_calls" : "stop"),
      { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output, prompt_tokens_details: { cached_tokens: usage.cached } } },
      "[DONE]",
    ]);
  },
  failure: { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: "bad request", type: "invalid_request_error" } }) },
};

const anthropicHarness: Harness = {
  name: "anthropic",
  async provider(responses) {
    const url = await serve(responses as ScriptedHttpResponse[]);
    return createAnthropic({ model: "claude-test", apiKey: "k", baseURL: `${url}/v1`, retry: { maxRetries: 0 } });
  },
  wire({ text, toolCalls, usage }) {
    const events: unknown[] = [
      { type: "message_start", message: { id: "msg", type: "message", role: "assistant", model: "claude-test", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input - usage.cached, cache_read_input_tokens: usage.cached, cache_creation_input_tokens: 0, output_tokens: 1 } } },
    ];
    let index = 0;
    if (text !== "") {
      events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
      for (const piece of split(text, 5)) events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
      events.push({ type: "content_block_stop", index: index++ });
    }
    for (const call of toolCalls) {
      events.push({ type: "content_block_start", index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } });
      for (const piece of split(call.argumentsText, 4)) events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } });
      events.push({ type: "content_block_stop", index: index++ });
    }
    events.push({ type: "message_delta", delta: { stop_reason: toolCalls.length > 0 ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: usage.output } });
    events.push({ type: "message_stop" });
    return sse(events, true);
  },
  failure: { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "bad request" } }) },
};

const responsesHarness: Harness = {
  name: "openai-responses",
  async provider(responses) {
    const url = await serve(responses as ScriptedHttpResponse[]);
    return createOpenAIResponses({ model: "gpt-test", apiKey: "k", baseURL: `${url}/v1`, retry: { maxRetries: 0 } });
  },
  wire({ text, toolCalls, usage }) {
    const events: unknown[] = [{ type: "response.created", response: { id: "resp", status: "in_progress", output: [] } }];
    let outputIndex = 0;
    if (text !== "") {
      events.push({ type: "response.output_item.added", output_index: outputIndex, item: { id: "msg", type: "message", status: "in_progress", content: [], role: "assistant" } });
      events.push({ type: "response.content_part.added", output_index: outputIndex, content_index: 0, item_id: "msg", part: { type: "output_text", text: "" } });
      for (const piece of split(text, 5)) events.push({ type: "response.output_text.delta", output_index: outputIndex, content_index: 0, item_id: "msg", delta: piece });
      events.push({ type: "response.output_item.done", output_index: outputIndex++, item: { id: "msg", type: "message", status: "completed", content: [{ type: "output_text", text }], role: "assistant" } });
    }
    for (const call of toolCalls) {
      events.push({ type: "response.output_item.added", output_index: outputIndex, item: { id: `fc_${call.id}`, type: "function_call", status: "in_progress", arguments: "", call_id: call.id, name: call.name } });
      for (const piece of split(call.argumentsText, 4)) events.push({ type: "response.function_call_arguments.delta", output_index: outputIndex, item_id: `fc_${call.id}`, delta: piece });
      events.push({ type: "response.output_item.done", output_index: outputIndex++, item: { id: `fc_${call.id}`, type: "function_call", status: "completed", arguments: call.argumentsText, call_id: call.id, name: call.name } });
    }
    events.push({ type: "response.completed", response: { id: "resp", status: "completed", usage: { input_tokens: usage.input, input_tokens_details: { cached_tokens: usage.cached }, output_tokens: usage.output, output_tokens_details: { reasoning_tokens: 0 } } } });
    return sse(events, true);
  },
  failure: { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: "bad request", type: "invalid_request_error", param: null, code: null } }) },
};

const scriptedHarness: Harness = {
  name: "scripted",
  async provider(responses) {
    if (Array.isArray(responses)) {
      const { CtxkitError } = await import("../types/index.js");
      return createScriptedProvider({ turns: [{ error: new CtxkitError("provider_http_error", "bad request") }] });
    }
    const { text, toolCalls, usage } = responses;
    return createScriptedProvider({
      turns: [{ text, toolCalls, usage: { inputTokens: usage.input, cachedInputTokens: usage.cached, outputTokens: usage.output }, delayMs: 2 }],
      chunkSize: 5,
    });
  },
  wire: () => ({}),
  failure: {},
};

async function providerFor(harness: Harness, scenario: Scenario): Promise<Provider> {
  return harness.name === "scripted" ? harness.provider(scenario) : harness.provider([harness.wire(scenario)]);
}

async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const meta = (id: string, origin: "user" | "model" | "tool" | "harness") => ({ id, origin, createdAt: "2026-01-01T00:00:00.000Z" });
const tool = { name: "get_weather", description: "Weather for a city.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };
const baseRequest = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  system: { staticText: "You are a weather agent.", sessionText: "User: Ada" },
  tools: [tool],
  messages: [{ role: "user", content: "Weather in Oslo and Rome?", meta: meta("u1", "user") }],
  cacheBreakpoints: [{ kind: "system_static" }, { kind: "prefix" }, { kind: "message", index: 0 }],
  settings: {},
  ...overrides,
});

describe.each([openAIHarness, anthropicHarness, responsesHarness, scriptedHarness])("provider contract: $name", (harness) => {
  const scenario: Scenario = {
    text: "Let me check both cities.",
    toolCalls: [
      { id: "call_1", name: "get_weather", argumentsText: '{"city":"Oslo"}' },
      { id: "call_2", name: "get_weather", argumentsText: '{"city":"Rome"}' },
    ],
    usage: { input: 1200, cached: 1024, output: 30 },
  };

  it("says which provider contract it implements, the one createAgent accepts", async () => {
    const provider = await providerFor(harness, scenario);
    expect(provider.specificationVersion).toBe(providerSpecificationVersion);
    expect(() => checkProviderContract(provider)).not.toThrow();
  });

  it("streams text deltas that add up to the final text, then exactly one terminal done event", async () => {
    const provider = await providerFor(harness, { ...scenario, toolCalls: [] });
    const events = await collect(provider.stream(baseRequest()));
    const deltas = events.filter((event) => event.type === "text_delta").map((event) => (event.type === "text_delta" ? event.delta : ""));
    expect(deltas.length).toBeGreaterThan(1);
    const terminal = events.filter((event) => event.type === "done" || event.type === "error");
    expect(terminal).toHaveLength(1);
    const done = events.at(-1);
    expect(done?.type).toBe("done");
    if (done?.type !== "done") return;
    expect(done.response.content).toEqual([{ type: "text", text: deltas.join("") }]);
    expect(done.response.stopReason).toBe("stop");
  });

  it("assembles parallel tool calls with exact argument text, parsed arguments and cached-token usage", async () => {
    const provider = await providerFor(harness, scenario);
    const events = await collect(provider.stream(baseRequest()));
    const starts = events.filter((event) => event.type === "tool_call_start");
    expect(starts.map((event) => (event.type === "tool_call_start" ? event.id : ""))).toEqual(["call_1", "call_2"]);
    const done = events.at(-1);
    expect(done?.type).toBe("done");
    if (done?.type !== "done") return;
    expect(done.response.stopReason).toBe("tool_calls");
    expect(done.response.content.filter((part) => part.type === "tool_call")).toEqual([
      { type: "tool_call", id: "call_1", name: "get_weather", argumentsText: '{"city":"Oslo"}', arguments: { city: "Oslo" } },
      { type: "tool_call", id: "call_2", name: "get_weather", argumentsText: '{"city":"Rome"}', arguments: { city: "Rome" } },
    ]);
    expect(done.usage).toMatchObject({ inputTokens: 1200, cachedInputTokens: 1024, outputTokens: 30 });
  });

  it("turns a failed request into a terminal error event instead of throwing", async () => {
    const provider = harness.name === "scripted" ? await harness.provider([]) : await harness.provider([harness.failure]);
    const events = await collect(provider.stream(baseRequest()));
    const last = events.at(-1);
    expect(last?.type).toBe("error");
    if (last?.type !== "error") return;
    expect(last.error.code).toBe("provider_http_error");
    expect(last.error.message).toContain("bad request");
  });

  it("ends with an aborted error event carrying the partial response when the caller aborts", async () => {
    const provider = await providerFor(harness, { ...scenario, text: "a long answer ".repeat(20), toolCalls: [] });
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    for await (const event of provider.stream(baseRequest(), controller.signal)) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    const last = events.at(-1);
    expect(last?.type).toBe("error");
    if (last?.type !== "error") return;
    expect(last.error.code).toBe("aborted");
    const partialText = last.partial.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    expect(partialText.length).toBeGreaterThan(0);
  });

  it("serialises requests so each call's body before the tail is a byte-prefix of the next call's body", async () => {
    const provider = await providerFor(harness, scenario);
    const status = (text: string): UserMessage => ({ role: "user", content: `<agent_status>${text}</agent_status>`, meta: meta(`tail_${text}`, "harness") });
    const first = baseRequest({ tail: status("call 1") });
    const assistant: AssistantMessage = {
      role: "assistant",
      meta: meta("a1", "model"),
      stopReason: "tool_calls",
      content: [{ type: "text", text: "Checking." }, ...scenario.toolCalls.map((call) => ({ type: "tool_call" as const, ...call, arguments: JSON.parse(call.argumentsText) as unknown }))],
    };
    const results: ToolMessage[] = scenario.toolCalls.map((call, index) => ({ role: "tool", toolCallId: call.id, toolName: call.name, content: `{"tempC":${index}}`, isError: false, meta: meta(`t${index}`, "tool") }));
    const second = baseRequest({ messages: [...first.messages, assistant, ...results], tail: status("call 2"), cacheBreakpoints: [{ kind: "system_static" }, { kind: "prefix" }, { kind: "message", index: 3 }] });
    const third = baseRequest({
      messages: [...second.messages, { role: "assistant", content: [{ type: "text", text: "Oslo 0, Rome 1." }], meta: meta("a2", "model"), stopReason: "stop" }, { role: "user", content: "Thanks!", meta: meta("u2", "user") }],
      tail: status("call 3"),
    });
    const bodies = [first, second, third].map((request) => provider.serialize(request));
    for (let index = 1; index < bodies.length; index++) {
      const previous = bodies[index - 1]!;
      expect(bodies[index]!.body.startsWith(previous.body.slice(0, previous.prefixLength))).toBe(true);
      expect(previous.body.slice(previous.prefixLength)).toContain(`call ${index}`);
    }
  });
});
