import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../loop/create-agent.js";
import { resolveDeferredTools } from "../../tools/search/resolve-deferred-tools.js";
import { createTestClock, createTestIds } from "../../loop/test-support.js";
import { isMessage } from "../../session/validate-message.js";
import { startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
import { defineTool } from "../../tools/tool.js";
import type { AgentEvent } from "../../types/index.js";
import { createAnthropic } from "./index.js";

// A real recorded Anthropic stream with native tool search (claude-sonnet-4-5-20250929, BM25 tool
// search, a deferred get_weather): vercel/ai packages/anthropic/src/__fixtures__/anthropic-tool-search-bm25.1.chunks.txt
// (commit a0d48878), one event's data per line, two responses back to back. Copied as recorded.
const recorded = readFileSync(new URL("./test-support/anthropic-tool-search-bm25.chunks.txt", import.meta.url), "utf8").split("\n");
const secondStart = recorded.findIndex((line, index) => index > 0 && line.startsWith('{"type":"message_start"'));
// The data lines as the API streamed them (byte for byte), each with its event name.
const toChunks = (lines: string[]) => lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`);
const searchTurn = toChunks(recorded.slice(0, secondStart));
const answerTurn = toChunks(recorded.slice(secondStart));

const getWeather = defineTool<{ location: string }>({
  name: "get_weather",
  description: "Current weather for a location.",
  parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
  deferred: true,
  parallelSafe: true,
  async execute({ location }) {
    return `${location}: 64°F, partly cloudy, humidity 65%.`;
  },
});

const echoTool = defineTool({ name: "echo", description: "Echoes text.", parameters: { type: "object", properties: { text: { type: "string" } } }, async execute() { return ""; } });

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("Anthropic server blocks (native tool search)", () => {
  it("keeps server_tool_use and tool_search_tool_result in the assistant message and sends them back unchanged", async () => {
    server = await startLoopbackServer([
      { headers: { "content-type": "text/event-stream" }, chunks: searchTurn },
      { headers: { "content-type": "text/event-stream" }, chunks: answerTurn },
    ]);
    const provider = createAnthropic({ model: "claude-sonnet-4-5-20250929", apiKey: "test", baseURL: server.url, toolSearch: "bm25", maxOutputTokens: 1024 });
    const agent = createAgent({ provider, system: "You report the weather.", ...resolveDeferredTools({ tools: [echoTool, getWeather], nativeToolSearch: provider.nativeToolSearch === true }), prefixGuard: { strict: true }, runtime: { clock: createTestClock(), createId: createTestIds() } });
    const events: AgentEvent[] = [];
    for await (const event of agent.run("What's the weather in San Francisco?")) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
    expect(events.filter((event) => event.type === "cache_break")).toEqual([]);

    const assistant = agent.messages[1]!;
    if (assistant.role !== "assistant") throw new Error("expected the assistant message");
    expect(assistant.content.map((part) => part.type)).toEqual(["text", "provider_block", "provider_block", "text", "tool_call"]);
    // Stored as data the session format accepts.
    expect(isMessage(assistant)).toBe(true);
    expect(agent.messages.find((message) => message.role === "tool")).toMatchObject({ toolName: "get_weather", content: "San Francisco, CA: 64°F, partly cloudy, humidity 65%." });

    // The next request carries both blocks where they were: the result block byte for byte as it was
    // streamed, the server_tool_use with the input its deltas built.
    const second = server.requests[1]!.body;
    const recordedResult = (JSON.parse(recorded.find((line) => line.includes('"tool_search_tool_result"'))!) as { content_block: unknown }).content_block;
    const resultBytes = recorded.find((line) => line.includes('"tool_search_tool_result"'))!.match(/"content_block":(\{.*\})\}$/)![1]!;
    expect(JSON.stringify(recordedResult)).toBe(resultBytes);
    const serverUse = '{"type":"server_tool_use","id":"srvtoolu_01Gj33J3YUAAxF9TWRAThxtu","name":"tool_search_tool_bm25","input":{"query":"weather forecast current conditions"},"caller":{"type":"direct"}}';
    expect(second).toContain(
      `{"role":"assistant","content":[{"type":"text","text":"I'll search for a weather-related tool to help you get the weather information for San Francisco."},${serverUse},${resultBytes},{"type":"text","text":"Great! I found a weather tool. Let me get the current weather for San Francisco."},{"type":"tool_use","id":"toolu_019nRrfqqXcU5NPTUSYfEMAY","name":"get_weather","input":{"location":"San Francisco, CA"}`,
    );
  });

  it("sends no server block to another provider", async () => {
    const { convertToOpenAIMessages } = await import("../openai-compatible/convert-to-openai-messages.js");
    const block = { type: "provider_block" as const, provider: "anthropic" as const, block: '{"type":"server_tool_use","id":"srvtoolu_1","name":"tool_search_tool_bm25","input":{"query":"x"}}' };
    const converted = convertToOpenAIMessages({
      system: { staticText: "s" },
      messages: [{ role: "assistant", content: [{ type: "text", text: "Searching." }, block], meta: { id: "a", origin: "model", createdAt: "2026-01-01T00:00:00.000Z" } }],
      reasoningRoundTrip: "strip",
    });
    expect(JSON.stringify(converted)).not.toContain("srvtoolu_1");
  });
});
