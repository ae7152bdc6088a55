import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../loop/create-agent.js";
import { collectRunEvents } from "../../loop/test-support/collect-run-events.js";
import { createTestClock, createTestIds } from "../../loop/test-support.js";
import { isMessage } from "../../session/validate-message.js";
import { startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../../testing/loopback-server.js";
import { defineTool } from "../../tools/tool.js";
import { resolveDeferredTools } from "../../tools/search/resolve-deferred-tools.js";
import { createOpenAIResponses } from "./index.js";

// Real recorded Responses streams (vercel/ai fixtures; origin and trimming in fixtures/README.md).
const lines = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8").split("\n").filter((line) => line.trim() !== "");
/** The recorded data lines as the API streams them: one SSE event each, with its event name. */
const sse = (recorded: string[]): ScriptedHttpResponse => ({
  headers: { "content-type": "text/event-stream" },
  chunks: recorded.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`),
});
/** A file holding several responses back to back, split at each `response.created`. */
function responsesOf(recorded: string[]): string[][] {
  const turns: string[][] = [];
  for (const line of recorded) {
    if (line.startsWith('{"type":"response.created"')) turns.push([]);
    turns.at(-1)!.push(line);
  }
  return turns;
}
const doneItem = (recorded: string[], itemType: string) => {
  const line = recorded.find((candidate) => candidate.includes('"type":"response.output_item.done"') && candidate.includes(`"type":"${itemType}"`))!;
  return { parsed: (JSON.parse(line) as { item: unknown }).item, bytes: line.match(/"item":(\{.*\})(,"output_index"|,"sequence_number"|\}$)/)![1]! };
};

const calculator = defineTool<{ a: number; b: number; op: string }>({
  name: "calculator",
  description: "A minimal calculator for basic arithmetic. Call it once per step.",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" }, op: { type: "string", enum: ["add", "subtract", "multiply", "divide"] } }, required: ["a", "b", "op"] },
  async execute({ a, b, op }) {
    return String(op === "add" ? a + b : op === "subtract" ? a - b : op === "multiply" ? a * b : a / b);
  },
});

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("OpenAI Responses against recorded streams", () => {
  it("runs a recorded gpt-5.1-codex-max tool loop and sends its encrypted reasoning item back byte for byte", async () => {
    const recorded = lines("gpt-5.1-codex-max-reasoning-tool-loop.jsonl");
    const turns = responsesOf(recorded);
    expect(turns).toHaveLength(4);
    server = await startLoopbackServer(turns.map(sse));
    const provider = createOpenAIResponses({ model: "gpt-5.1-codex-max", apiKey: "test", baseURL: server.url, promptCacheKey: "session-1", reasoning: { effort: "high", summary: "detailed" } });
    const agent = createAgent({ provider, system: "You do arithmetic with the calculator.", tools: [calculator], prefixGuard: { strict: true }, runtime: { clock: createTestClock(), createId: createTestIds() } });
    const events = await collectRunEvents(agent, "What is (12 + 7) × 3 × 10?");
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
    expect(events.filter((event) => event.type === "cache_break")).toEqual([]);
    expect(server.requests.map((request) => request.path)).toEqual(["/responses", "/responses", "/responses", "/responses"]);

    const assistant = agent.messages[1]!;
    if (assistant.role !== "assistant") throw new Error("expected the assistant message");
    expect(assistant.content.map((part) => part.type)).toEqual(["thinking", "tool_call"]);
    expect(isMessage(assistant)).toBe(true);
    const reasoning = doneItem(recorded, "reasoning");
    const thinking = assistant.content[0]!;
    if (thinking.type !== "thinking") throw new Error("expected thinking");
    expect(thinking.thinking).toBe((reasoning.parsed as { summary: Array<{ text: string }> }).summary[0]!.text);
    // Stored as the bytes the API streamed, and written back as those bytes.
    expect(thinking.providerDetails).toBe(reasoning.bytes);
    expect(assistant.content[1]).toMatchObject({ type: "tool_call", id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn", name: "calculator", argumentsText: '{"a":12,"b":7,"op":"add"}' });

    const second = server.requests[1]!.body;
    expect(second).toContain(`${reasoning.bytes},{"type":"function_call","call_id":"call_AB6AaRZ1FYZB2RwS6A5vbdqn","name":"calculator","arguments":"{\\"a\\":12,\\"b\\":7,\\"op\\":\\"add\\"}"},{"type":"function_call_output","call_id":"call_AB6AaRZ1FYZB2RwS6A5vbdqn","output":"19"}`);
    const firstBody = JSON.parse(server.requests[0]!.body) as Record<string, unknown>;
    expect(firstBody).toMatchObject({ model: "gpt-5.1-codex-max", stream: true, store: false, include: ["reasoning.encrypted_content"], prompt_cache_key: "session-1", reasoning: { effort: "high", summary: "detailed" }, instructions: "You do arithmetic with the calculator." });
    // Each request before its tail is a byte-prefix of the next one (the reasoning item included).
    for (let index = 1; index < server.requests.length; index++) {
      const previous = server.requests[index - 1]!.body;
      expect(server.requests[index]!.body.startsWith(previous.slice(0, previous.length - 2))).toBe(true);
    }
    const finalText = responsesOf(recorded)[3]!.filter((line) => line.includes('"response.output_text.delta"')).map((line) => (JSON.parse(line) as { delta: string }).delta).join("");
    expect(events.filter((event) => event.type === "text_delta").map((event) => (event.type === "text_delta" ? event.delta : "")).join("")).toBe(finalText);
    const usage = events.filter((event) => event.type === "usage").map((event) => (event.type === "usage" ? event.usage.inputTokens : 0));
    expect(usage).toEqual([134, 221, 260, 299]);
  });

  it("maps a recorded hosted tool search: deferred functions go out with defer_loading, the search items come back unchanged", async () => {
    const recorded = lines("gpt-5.4-hosted-tool-search.jsonl");
    // The recording has one response; the answer after the tool result is written here in the same format.
    const answer = [
      '{"type":"response.created","response":{"id":"resp_2","status":"in_progress","output":[]},"sequence_number":0}',
      '{"type":"response.output_item.added","item":{"id":"msg_2","type":"message","status":"in_progress","content":[],"role":"assistant"},"output_index":0,"sequence_number":1}',
      '{"type":"response.output_text.delta","content_index":0,"delta":"It is 64°F in San Francisco.","item_id":"msg_2","output_index":0,"sequence_number":2}',
      '{"type":"response.output_item.done","item":{"id":"msg_2","type":"message","status":"completed","content":[{"type":"output_text","text":"It is 64°F in San Francisco."}],"role":"assistant"},"output_index":0,"sequence_number":3}',
      '{"type":"response.completed","response":{"id":"resp_2","status":"completed","usage":{"input_tokens":900,"input_tokens_details":{"cached_tokens":640},"output_tokens":12,"output_tokens_details":{"reasoning_tokens":0}}},"sequence_number":4}',
    ];
    server = await startLoopbackServer([sse(recorded), sse(answer)]);
    const getWeather = defineTool<{ location: string; unit: string }>({
      name: "get_weather",
      description: "Get the current weather at a specific location",
      parameters: { type: "object", properties: { location: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } }, required: ["location", "unit"] },
      deferred: true,
      async execute({ location }) {
        return `${location}: 64°F`;
      },
    });
    const provider = createOpenAIResponses({ model: "gpt-5.4", apiKey: "test", baseURL: server.url, toolSearch: true });
    expect(provider.nativeToolSearch).toBe(true);
    // The deferred tool is routed by the tool-search policy in its native form (the API searches it).
    const deferred = resolveDeferredTools({ tools: [calculator, getWeather], nativeToolSearch: true });
    const agent = createAgent({ provider, system: "You report the weather.", ...deferred, prefixGuard: { strict: true }, runtime: { clock: createTestClock(), createId: createTestIds() } });
    const events = await collectRunEvents(agent, "What's the weather in San Francisco?");
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });

    const first = JSON.parse(server.requests[0]!.body) as { tools: Array<Record<string, unknown>> };
    expect(first.tools.map((tool) => [tool.type, tool.name, tool.defer_loading])).toEqual([
      ["function", "calculator", undefined],
      ["function", "get_weather", true],
      ["tool_search", undefined, undefined],
    ]);
    const assistant = agent.messages[1]!;
    if (assistant.role !== "assistant") throw new Error("expected the assistant message");
    expect(assistant.content.map((part) => part.type)).toEqual(["provider_block", "provider_block", "tool_call"]);
    const second = server.requests[1]!.body;
    const call = doneItem(recorded, "tool_search_call").bytes;
    const output = doneItem(recorded, "tool_search_output").bytes;
    expect(second).toContain(`${call},${output},{"type":"function_call","call_id":"call_pddfxhfOx4gY56zn4vIIEbFp","name":"get_weather","arguments":"{\\"location\\":\\"San Francisco, CA\\",\\"unit\\":\\"fahrenheit\\"}","namespace":"get_weather"}`);
    expect(events.find((event) => event.type === "usage")).toMatchObject({ usage: { inputTokens: 640, cachedInputTokens: 0, reasoningTokens: 20 } });
  });

  it("keeps a recorded server-side compaction item byte-exact and sends it back", async () => {
    const recorded = lines("gpt-5.2-server-compaction.jsonl");
    server = await startLoopbackServer([sse(recorded)]);
    const provider = createOpenAIResponses({ model: "gpt-5.2", apiKey: "test", baseURL: server.url, compactThreshold: 50_000 });
    const agent = createAgent({ provider, system: "You explain testing.", tools: [], runtime: { clock: createTestClock(), createId: createTestIds() } });
    const events = await collectRunEvents(agent, "Compare unit, integration and E2E tests.");
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ context_management: [{ type: "compaction", compact_threshold: 50_000 }] });
    expect(events.find((event) => event.type === "usage")).toMatchObject({ usage: { inputTokens: 51_097, cachedInputTokens: 49_792, outputTokens: 2505 } });
    const assistant = agent.messages[1]!;
    if (assistant.role !== "assistant") throw new Error("expected the assistant message");
    expect(assistant.content.map((part) => part.type)).toEqual(["text", "provider_block"]);
    const compaction = doneItem(recorded, "compaction").bytes;
    expect(assistant.content[1]).toEqual({ type: "provider_block", provider: "openai", block: compaction });
    const next = provider.serialize({ system: { staticText: "You explain testing." }, tools: [], messages: [...agent.messages, { role: "user", content: "Thanks", meta: { id: "u2", origin: "user", createdAt: "2026-01-01T00:00:00.000Z" } }], cacheBreakpoints: [], settings: {} });
    expect(next.body).toContain(compaction);
  });

  it("ends a recorded insufficient_quota stream with one terminal error event", async () => {
    server = await startLoopbackServer([sse(lines("gpt-5-nano-insufficient-quota.jsonl"))]);
    const provider = createOpenAIResponses({ model: "gpt-5-nano", apiKey: "test", baseURL: server.url });
    const events = [];
    for await (const event of provider.stream({ system: { staticText: "s" }, tools: [], messages: [], cacheBreakpoints: [], settings: {} })) events.push(event);
    expect(events.filter((event) => event.type === "done" || event.type === "error")).toHaveLength(1);
    const last = events.at(-1);
    expect(last?.type).toBe("error");
    if (last?.type !== "error") return;
    expect(last.error.code).toBe("provider_http_error");
    expect(last.error.message).toContain("insufficient_quota");
    expect(last.error.message).toContain("You exceeded your current quota");
  });
});

describe("server-side compaction as a declared break", () => {
  it("drops what the recorded compaction item covers, declared, and sends the item byte-exact first", async () => {
    const { createServerCompactionPolicy } = await import("../../context/server-compaction/server-compaction-policy.js");
    const recorded = lines("gpt-5.2-server-compaction.jsonl");
    const followUp = [
      '{"type":"response.created","response":{"id":"resp_2","status":"in_progress","output":[]}}',
      '{"type":"response.output_text.delta","output_index":0,"content_index":0,"item_id":"msg_2","delta":"Sure."}',
      '{"type":"response.completed","response":{"id":"resp_2","status":"completed","usage":{"input_tokens":3000,"input_tokens_details":{"cached_tokens":0},"output_tokens":2}}}',
    ];
    server = await startLoopbackServer([sse(recorded), sse(followUp)]);
    const provider = createOpenAIResponses({ model: "gpt-5.2", apiKey: "test", baseURL: server.url, compactThreshold: 50_000 });
    const agent = createAgent({ provider, system: "You explain testing.", tools: [], context: [createServerCompactionPolicy()], prefixGuard: { strict: true }, runtime: { clock: createTestClock(), createId: createTestIds() } });
    await collectRunEvents(agent, "Compare unit, integration and E2E tests.");
    const events = await collectRunEvents(agent, "Shorter, please.");
    expect(events.find((event) => event.type === "context_edit")).toMatchObject({ kind: "replace", start: 0, end: 1 });
    expect(events.find((event) => event.type === "cache_break")).toMatchObject({ declared: true, reason: expect.stringContaining("server-side compaction") });
    const second = JSON.parse(server.requests[1]!.body) as { input: Array<{ type?: string; role?: string }> };
    // The compaction item's assistant turn opens the input; the first question is gone.
    expect(second.input.map((item) => item.type ?? item.role)).toEqual(["message", "compaction", "user"]);
    expect(server.requests[1]!.body).toContain(doneItem(recorded, "compaction").bytes);
  });
});
