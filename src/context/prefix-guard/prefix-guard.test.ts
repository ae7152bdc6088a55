import { describe, expect, it } from "vitest";
import { buildOpenAIRequestBody } from "../../providers/openai-compatible/build-openai-request-body.js";
import type { SerializedRequest } from "../../providers/provider.js";
import { serializeAnthropicRequest } from "../../providers/anthropic/serialize-anthropic-request.js";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import { createQwen3PromptTokens } from "../../tokens/prompt-tokens.js";
import type { AssistantMessage, Message, ModelRequest, ToolMessage } from "../../types/index.js";
import { createPrefixGuard, hashBody } from "./prefix-guard.js";

const meta = (id: string) => ({ id, origin: "user" as const, createdAt: "2026-01-01T00:00:00.000Z" });
const user = (id: string, content: string): Message => ({ role: "user", content, meta: meta(id) });
const tools = [
  { name: "a", description: "A.", parameters: { type: "object" } },
  { name: "b", description: "B.", parameters: { type: "object" } },
];
const request = (staticText: string, messages: Message[], tail?: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  system: { staticText },
  tools,
  messages,
  ...(tail ? { tail: { role: "user", content: tail, meta: { id: `tail-${tail}`, origin: "harness", createdAt: "" } } } : {}),
  cacheBreakpoints: [],
  settings: {},
  ...extra,
});
const openai = (input: ModelRequest): SerializedRequest => buildOpenAIRequestBody({ model: "m", stream: true, reasoningRoundTrip: "send", request: input });
const guardOn = (serialize = openai, strict = true) => createPrefixGuard({ serialize, counter: getTokenCounter("estimate"), strict });

describe("prefix guard on the wire body", () => {
  it("reports the previous body as reusable when a request only appends and changes its tail", () => {
    const guard = guardOn();
    const first = guard.check(request("You are helpful.", [user("1", "hello")], "status 1"));
    const second = guard.check(request("You are helpful.", [user("1", "hello"), user("2", "more")], "status 2"));
    expect(first.reusablePrefixChars).toBe(0);
    expect(second.cacheBreak).toBeUndefined();
    expect(second.reusablePrefixChars).toBe(first.serialized.prefixLength);
    expect(second.bodyHash).toBe(hashBody(second.serialized.body));
  });

  it("names the layer, first differing byte and the lost tokens of an edited system prompt", () => {
    const guard = guardOn(openai, false);
    const before = guard.check(request("Time: 10:30. You are helpful.", [user("1", "hello")]));
    const { cacheBreak } = guard.check(request("Time: 10:31. You are helpful.", [user("1", "hello"), user("2", "x")]));
    expect(cacheBreak).toMatchObject({ layer: "system_static", index: 0, declared: false, detectedBy: "wire", tokenSource: "estimate" });
    expect(before.serialized.body.slice(0, cacheBreak!.firstDifferingByte)).toMatch(/Time: 10:3$/);
    expect(cacheBreak!.lostTokens).toBeGreaterThan(0);
    expect(cacheBreak!.excerpt.previous).toContain("10:30");
    expect(cacheBreak!.excerpt.next).toContain("10:31");
  });

  it("attributes a break to the tool, the message or the request settings that produced it", () => {
    const history = [user("1", "a"), user("2", "b"), user("3", "c")];
    const attribute = (next: ModelRequest) => {
      const guard = guardOn(openai, false);
      guard.check(request("s", history));
      return guard.check(next).cacheBreak;
    };
    const changedTool = [tools[0]!, { ...tools[1]!, description: "B, changed." }];
    expect(attribute(request("s", history, undefined, { tools: changedTool }))).toMatchObject({ layer: "tools", index: 1 });
    expect(attribute(request("s", [user("1", "a"), user("2", "B"), user("3", "c")]))).toMatchObject({ layer: "message", index: 1 });
    expect(attribute(request("s", [history[1]!, history[2]!, user("4", "d")]))).toMatchObject({ layer: "message", index: 0 });
    expect(attribute(request("s", history, undefined, { settings: { temperature: 0.5 } }))).toMatchObject({ layer: "request" });
  });

  it("raises no alarm for fields no wire format sends (ids, stop reasons, parsed arguments, origins)", () => {
    const call = { type: "tool_call" as const, id: "c1", name: "a", argumentsText: '{"x":1}', arguments: { x: 1 } };
    const assistant: AssistantMessage = { role: "assistant", content: [call], meta: { id: "a1", origin: "model", createdAt: "t1" }, stopReason: "tool_calls" };
    const result: ToolMessage = { role: "tool", toolCallId: "c1", toolName: "a", content: "ok", isError: false, meta: { id: "t1", origin: "tool", createdAt: "t1" } };
    const guard = guardOn();
    guard.check(request("s", [user("1", "go"), assistant, result]));
    const rewritten: Message[] = [
      { ...user("other", "go"), meta: { id: "x", origin: "harness", createdAt: "later", derived: { kind: "status" } } },
      { ...assistant, stopReason: "stop", rawStopReason: "whatever", content: [{ ...call, arguments: { x: 2 } }], meta: { ...assistant.meta, id: "zz" } },
      { ...result, isError: true, toolName: "renamed", meta: { ...result.meta, id: "yy" } },
    ];
    // The old guard hashed the whole message object and flagged all three; on the wire they are identical.
    expect(guard.check(request("s", [...rewritten, user("2", "next")])).cacheBreak).toBeUndefined();
  });

  it("catches a serializer change that alters the bytes of an old message", () => {
    let version = 1;
    // A provider update that starts writing tool results differently (here: a trailing space).
    const evolving = (input: ModelRequest) =>
      openai(version === 1 ? input : { ...input, messages: input.messages.map((message) => (message.role === "tool" ? { ...message, content: `${message.content} ` } : message)) });
    const result: ToolMessage = { role: "tool", toolCallId: "c1", toolName: "a", content: "ok", isError: false, meta: meta("t") };
    const assistant: AssistantMessage = { role: "assistant", content: [{ type: "tool_call", id: "c1", name: "a", argumentsText: "{}", arguments: {} }], meta: meta("a") };
    const guard = guardOn(evolving, false);
    guard.check(request("s", [user("1", "go"), assistant, result]));
    version = 2;
    const { cacheBreak } = guard.check(request("s", [user("1", "go"), assistant, result, user("2", "next")]));
    expect(cacheBreak).toMatchObject({ layer: "message", index: 2, declared: false, detectedBy: "wire" });
  });

  it("works on Anthropic's body too, where tool results share one user message", () => {
    const serialize = (input: ModelRequest) => serializeAnthropicRequest(input, { model: "claude", maxOutputTokens: 1024, cacheTtl: "5m" });
    const call = (id: string) => ({ type: "tool_call" as const, id, name: "a", argumentsText: "{}", arguments: {} });
    const assistant: AssistantMessage = { role: "assistant", content: [call("c1"), call("c2")], meta: meta("a") };
    const result = (id: string, content: string): ToolMessage => ({ role: "tool", toolCallId: id, toolName: "a", content, isError: false, meta: meta(id) });
    const guard = guardOn(serialize, false);
    guard.check(request("s", [user("1", "go"), assistant, result("c1", "one"), result("c2", "two")], "status"));
    expect(guard.check(request("s", [user("1", "go"), assistant, result("c1", "one"), result("c2", "two"), user("2", "more")], "status 2")).cacheBreak).toBeUndefined();
    const { cacheBreak } = guard.check(request("s", [user("1", "go"), assistant, result("c1", "one"), result("c2", "TWO"), user("2", "more")]));
    expect(cacheBreak).toMatchObject({ layer: "message", index: 3 });
  });

  it("records a declared break with its reason and does not throw in strict mode", () => {
    const guard = guardOn();
    guard.check(request("s", [user("1", "long history")]));
    const { cacheBreak } = guard.check(request("s", [user("9", "summary")]), { reason: "compaction" });
    expect(cacheBreak).toMatchObject({ declared: true, reason: "compaction", layer: "message", index: 0 });
  });

  it("counts a request's prefix only when the next check reports it, each part once (a run's first request is not held up by it)", () => {
    const counted: string[] = [];
    const estimate = getTokenCounter("estimate");
    const counter = { ...estimate, count: (text: string) => (counted.push(text), estimate.count(text)) };
    const guard = createPrefixGuard({ serialize: openai, counter, strict: true });
    const first = guard.check(request("You are helpful.", [user("1", "hello")], "status 1"));
    expect(first.estimatedReusablePrefixTokens).toBe(0);
    expect(counted).toEqual([]);
    const second = guard.check(request("You are helpful.", [user("1", "hello"), user("2", "more")], "status 2"));
    const firstPrefix = first.serialized.body.slice(0, first.serialized.prefixLength);
    expect(counted).toEqual([firstPrefix]);
    expect(second.estimatedReusablePrefixTokens).toBe(estimate.count(firstPrefix));
    const third = guard.check(request("You are helpful.", [user("1", "hello"), user("2", "more"), user("3", "again")], "status 3"));
    const secondPrefix = second.serialized.body.slice(0, second.serialized.prefixLength);
    // The second prefix is the first one and what it added: only the addition is counted.
    expect(counted).toEqual([firstPrefix, secondPrefix.slice(firstPrefix.length)]);
    expect(third.estimatedReusablePrefixTokens).toBe(estimate.count(firstPrefix) + estimate.count(secondPrefix.slice(firstPrefix.length)));
  });

  it("throws a prefix_break error naming the layer in strict mode", () => {
    const guard = guardOn();
    guard.check(request("s", [user("1", "a")]));
    expect(() => guard.check(request("s", [user("1", "A")]))).toThrowError(/Undeclared cache break in message\[0\] at byte/);
  });
});

describe("prefix guard on the rendered prompt's tokens", () => {
  const qwen3 = () => createPrefixGuard({ serialize: openai, counter: getTokenCounter("estimate"), promptTokens: createQwen3PromptTokens(getTokenCounter("qwen3")) });
  const reasoning: AssistantMessage = {
    role: "assistant",
    content: [{ type: "thinking", thinking: "The user wants a weather check." }, { type: "tool_call", id: "c1", name: "a", argumentsText: "{}", arguments: {} }],
    meta: meta("a1"),
  };
  const result: ToolMessage = { role: "tool", toolCallId: "c1", toolName: "a", content: "sunny", isError: false, meta: meta("t1") };

  it("catches Qwen3's template dropping earlier reasoning at a new user query, which the JSON body cannot show", () => {
    const guard = qwen3();
    guard.check(request("s", [user("1", "weather?"), reasoning, result]));
    const { cacheBreak } = guard.check(request("s", [user("1", "weather?"), reasoning, result, user("2", "and tomorrow?")]));
    expect(cacheBreak).toMatchObject({ layer: "message", index: 1, detectedBy: "tokens", tokenSource: "prompt", firstDifferingByte: -1 });
    expect(cacheBreak!.detail).toMatch(/reasoning of assistant message/);
    expect(cacheBreak!.lostTokens).toBeGreaterThan(0);
  });

  it("counts reused prompt tokens exactly when the template keeps the prefix", () => {
    const guard = qwen3();
    const first = guard.check(request("s", [user("1", "weather?")], "status"));
    const second = guard.check(request("s", [user("1", "weather?"), reasoning, result], "status 2"));
    expect(second.cacheBreak).toBeUndefined();
    expect(second.reusablePrefixTokens).toBeGreaterThan(0);
    expect(second.reusablePrefixTokens).toBeLessThan(first.promptTokens!);
  });
});
