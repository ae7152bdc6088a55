import { afterEach, describe, expect, it } from "vitest";
import { createAgent as createBareAgent } from "../../loop/create-agent.js";
import { createTestClock, createTestIds, weatherTool } from "../../loop/test-support.js";
import { createAnthropic } from "../../providers/anthropic/index.js";
import { createOpenAICompatible } from "../../providers/openai-compatible/index.js";
import { sseChunks, startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
import { defineTool } from "../tool.js";
import { resolveDeferredTools } from "./resolve-deferred-tools.js";

// Deferred tools need the tool-search policy, which assembleAgent adds; these tests build the bare agent.
const createAgent = (options: Parameters<typeof createBareAgent>[0]) =>
  createBareAgent({ ...options, ...resolveDeferredTools({ tools: options.tools ?? [], context: options.context ?? [], nativeToolSearch: options.provider.nativeToolSearch === true }) });

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const forecast = defineTool<{ city: string; days?: number }>({
  name: "get_forecast",
  description: "Weather forecast for the next days.",
  parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] },
  deferred: true,
  parallelSafe: true,
  async execute({ city }) {
    return `Sunny in ${city}.`;
  },
});

const event = (name: string, data: unknown) => ({ event: name, data: { type: name, ...(data as object) } });

/**
 * A streamed turn in which Claude searches with the BM25 server tool, gets a reference back, and
 * calls the found tool. The block shapes (`server_tool_use` named `tool_search_tool_bm25` with a
 * `query`, then `tool_search_tool_result` holding `tool_search_tool_search_result` /
 * `tool_reference` items) are those of the response fixture in maximhq/bifrost
 * (core/providers/anthropic, `rawToolSearchNonStreamingResponse`), put into the Messages API's
 * streaming events: a server tool's input streams as `input_json_delta`, its result block arrives
 * whole in `content_block_start`.
 */
const searchTurn = sseChunks([
  event("message_start", { message: { id: "msg_01ToolSearch", type: "message", role: "assistant", content: [], model: "claude-opus-4-8", stop_reason: null, usage: { input_tokens: 20, output_tokens: 1 } } }),
  event("content_block_start", { index: 0, content_block: { type: "server_tool_use", id: "srvtoolu_ns1", name: "tool_search_tool_bm25", input: {} } }),
  event("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: '{"query": "weather forecast"}' } }),
  event("content_block_stop", { index: 0 }),
  event("content_block_start", {
    index: 1,
    content_block: { type: "tool_search_tool_result", tool_use_id: "srvtoolu_ns1", content: { type: "tool_search_tool_search_result", tool_references: [{ type: "tool_reference", tool_name: "get_forecast" }] } },
  }),
  event("content_block_stop", { index: 1 }),
  event("content_block_start", { index: 2, content_block: { type: "tool_use", id: "toolu_1", name: "get_forecast", input: {} } }),
  event("content_block_delta", { index: 2, delta: { type: "input_json_delta", partial_json: '{"city": "Paris"}' } }),
  event("content_block_stop", { index: 2 }),
  event("message_delta", { delta: { stop_reason: "tool_use" }, usage: { output_tokens: 30 } }),
  event("message_stop", {}),
]);
const answerTurn = sseChunks([
  event("message_start", { message: { id: "msg_02", type: "message", role: "assistant", content: [], model: "claude-opus-4-8", stop_reason: null, usage: { input_tokens: 40, output_tokens: 1 } } }),
  event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
  event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Sunny." } }),
  event("content_block_stop", { index: 0 }),
  event("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } }),
  event("message_stop", {}),
]);

describe("deferred tools on Anthropic with native tool search (opt-in)", () => {
  it("sends deferred tools with defer_loading after the BM25 server tool, no proxy, and runs the tool Claude found", async () => {
    server = await startLoopbackServer([
      { headers: { "content-type": "text/event-stream" }, chunks: searchTurn },
      { headers: { "content-type": "text/event-stream" }, chunks: answerTurn },
    ]);
    const provider = createAnthropic({ model: "claude-opus-4-8", apiKey: "test", baseURL: server.url, toolSearch: "bm25", maxOutputTokens: 1024 });
    const agent = createAgent({ provider, system: "You report the weather.", tools: [weatherTool, forecast], runtime: { clock: createTestClock(), createId: createTestIds() } });
    const result = await agent.run("Forecast for Paris?").result();
    expect(result.finalText).toBe("Sunny.");

    const first = server.requests[0]!;
    expect(first.headers["anthropic-beta"]).toBe("advanced-tool-use-2025-11-20");
    const toolsJson = first.body.slice(first.body.indexOf('"tools":'), first.body.indexOf(',"messages":'));
    expect(toolsJson).toBe(
      '"tools":[{"name":"get_weather","description":"Current weather for a city.","input_schema":{"additionalProperties":false,"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"}},' +
        '{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"},' +
        '{"name":"get_forecast","description":"Weather forecast for the next days.","input_schema":{"properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"],"type":"object"},"defer_loading":true}]',
    );
    // The second request sends the same tools bytes, and the found tool's call ran directly.
    const second = server.requests[1]!;
    expect(second.body.slice(second.body.indexOf('"tools":'), second.body.indexOf(',"messages":'))).toBe(toolsJson);
    expect(agent.messages.find((message) => message.role === "tool")).toMatchObject({ toolName: "get_forecast", content: "Sunny in Paris.", isError: false });
  });

  it("serializes the same body the prefix guard compares, without cache_control", () => {
    const provider = createAnthropic({ model: "claude-opus-4-8", apiKey: "test", toolSearch: "regex" });
    const agent = createAgent({ provider, system: "s", tools: [forecast], prefixGuard: false });
    expect(agent.prefix.tools).toEqual([]);
    const body = provider.serialize({ system: { staticText: "s" }, tools: [], deferredTools: [forecast], messages: [], cacheBreakpoints: [], settings: {} }).body;
    expect(body).toContain('"tools":[{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"},{"name":"get_forecast",');
  });

  it("refuses native tool search on a provider without it, before any call", () => {
    const provider = createOpenAICompatible({ model: "m", apiKey: "k", baseURL: "http://127.0.0.1:9/v1" });
    expect(() => createAgent({ provider, system: "s", ...resolveDeferredTools({ tools: [forecast], toolSearch: { native: true }, nativeToolSearch: provider.nativeToolSearch === true }) })).toThrow(/toolSearch.native needs a provider/);
  });
});
