import { afterEach, describe, expect, it } from "vitest";
import { createAgent as createBareAgent } from "../../loop/create-agent.js";
import { createTestClock, createTestIds, weatherTool } from "../../loop/test-support.js";
import { createOpenAICompatible } from "../../providers/openai-compatible/index.js";
import type { ScriptedTurn } from "../../providers/scripted/scripted-turn.js";
import { startOpenAIModelServer, type OpenAIModelServer } from "../../testing/openai-model-server.js";
import { defineTool } from "../tool.js";
import type { AgentEvent, Tool } from "../../types/index.js";
import { resolveDeferredTools } from "./resolve-deferred-tools.js";

// Deferred tools need the tool-search policy, which assembleAgent adds; these tests build the bare agent.
const createAgent = (options: Parameters<typeof createBareAgent>[0]) =>
  createBareAgent({ ...options, ...resolveDeferredTools({ tools: options.tools ?? [], context: options.context ?? [], nativeToolSearch: options.provider.nativeToolSearch === true }) });

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cancelled: string[] = [];
const cancelReservation = defineTool<{ reservation_id: string }>({
  name: "cancel_reservation",
  description: "Cancel the whole reservation, given its id.",
  parameters: { type: "object", properties: { reservation_id: { type: "string" } }, required: ["reservation_id"], additionalProperties: false },
  deferred: true,
  requiresConfirmation: true,
  async execute({ reservation_id }) {
    cancelled.push(reservation_id);
    return `Reservation ${reservation_id} cancelled.`;
  },
});
const bookFlight = defineTool<{ origin: string }>({
  name: "book_flight",
  description: "Book a flight for a passenger.",
  parameters: { type: "object", properties: { origin: { type: "string" } }, required: ["origin"] },
  deferred: true,
  async execute() {
    return "booked";
  },
});

type Body = { tools: Array<{ function: { name: string } }>; messages: Array<{ role: string; content?: unknown; tool_call_id?: string }> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
async function runScripted(turns: ScriptedTurn[], tools: Tool<any>[], confirm?: (name: string) => boolean) {
  server = await startOpenAIModelServer(turns);
  const provider = createOpenAICompatible({ model: "scripted", baseURL: server.baseURL, apiKey: "test" });
  const confirmations: string[] = [];
  const agent = createAgent({
    provider,
    system: "You help with flights.",
    tools,
    ...(confirm ? { confirmToolCall: async (call) => (confirmations.push(`${call.name} ${call.argumentsText}`), confirm(call.name)) } : {}),
    runtime: { clock: createTestClock(), createId: createTestIds() },
  });
  const events: AgentEvent[] = [];
  for await (const event of agent.run("Please cancel reservation ABC123.")) events.push(event);
  const bodies = server.requests.map((request) => request.body);
  return { agent, events, bodies, parsed: bodies.map((body) => JSON.parse(body) as Body), confirmations };
}

const search = (query: string, id: string): ScriptedTurn => ({ toolCalls: [{ id, name: "tool_search", arguments: { query } }] });
const proxy = (name: string, args: unknown, id: string): ScriptedTurn => ({ toolCalls: [{ id, name: "call_tool", arguments: { name, arguments: args } }] });

describe("deferred tools on an OpenAI-compatible server (proxy form)", () => {
  it("sends call_tool and tool_search instead of deferred tools, appends the found definitions after the result, and keeps every body a byte-prefix extension", async () => {
    const { bodies, parsed, events } = await runScripted([search("cancel reservation", "s1"), "Done."], [weatherTool, cancelReservation, bookFlight]);
    expect(parsed[0]!.tools.map((tool) => tool.function.name)).toEqual(["call_tool", "get_weather", "tool_search"]);
    // The tools array is the same bytes in both requests; the second body extends the first.
    const toolsJson = (body: string) => body.slice(body.indexOf('"tools":'), body.indexOf('"tools":') + JSON.stringify({ tools: parsed[0]!.tools }).length - 1);
    expect(toolsJson(bodies[1]!)).toBe(toolsJson(bodies[0]!));
    const firstWithoutClose = bodies[0]!.slice(0, bodies[0]!.lastIndexOf("}]") + 1);
    expect(bodies[1]!.startsWith(firstWithoutClose)).toBe(true);
    expect(events.filter((event) => event.type === "cache_break")).toEqual([]);

    const messages = parsed[1]!.messages;
    const resultIndex = messages.findIndex((message) => message.role === "tool" && message.tool_call_id === "s1");
    expect(String(messages[resultIndex]!.content)).toContain("- cancel_reservation: Cancel the whole reservation, given its id.");
    expect(resultIndex).toBe(messages.length - 2);
    const discovery = messages.at(-1)!;
    expect(discovery.role).toBe("user");
    expect(String(discovery.content)).toContain(
      '{"name":"cancel_reservation","description":"Cancel the whole reservation, given its id.","parameters":{"additionalProperties":false,"properties":{"reservation_id":{"type":"string"}},"required":["reservation_id"],"type":"object"}}',
    );
    expect(String(discovery.content)).not.toContain("book_flight");
  });

  it("routes call_tool to the found tool with the same validation errors and confirmation as a direct call", async () => {
    cancelled.length = 0;
    const { agent, confirmations } = await runScripted(
      [search("cancel reservation", "s1"), proxy("cancel_reservation", { reservation_id: 42 }, "p1"), proxy("cancel_reservation", { reservation_id: "ABC123" }, "p2"), "Cancelled."],
      [weatherTool, cancelReservation],
      () => true,
    );
    const results = agent.messages.filter((message) => message.role === "tool");
    const invalid = results.find((message) => message.toolCallId === "p1")!;
    expect(invalid).toMatchObject({ isError: true, toolName: "cancel_reservation" }); // the result is the routed tool's (its source, counts and taint follow it)
    expect(invalid.content).toBe(
      `Error (invalid_arguments): Invalid arguments for 'cancel_reservation': argument 'reservation_id' must be string. Expected parameters: ${JSON.stringify(cancelReservation.parameters)}.`,
    );
    expect(results.find((message) => message.toolCallId === "p2")).toMatchObject({ isError: false, content: "Reservation ABC123 cancelled." });
    expect(confirmations).toEqual(['cancel_reservation {"reservation_id":"ABC123"}']);
    expect(cancelled).toEqual(["ABC123"]);
  });

  it("refuses a proxied call the person declined, like a direct one", async () => {
    cancelled.length = 0;
    const { agent } = await runScripted([search("cancel", "s1"), proxy("cancel_reservation", { reservation_id: "X" }, "p1"), "ok"], [cancelReservation], () => false);
    const result = agent.messages.find((message) => message.role === "tool" && message.toolCallId === "p1");
    expect(result).toMatchObject({ isError: true, content: "Error (rejected): The user declined this call to 'cancel_reservation'. Ask the user how to proceed or try another approach." });
    expect(cancelled).toEqual([]);
  });

  it("tells the model to search first when it calls a deferred tool it has not discovered (through the proxy or directly)", async () => {
    const { agent } = await runScripted(
      [proxy("book_flight", { origin: "SFO" }, "p1"), { toolCalls: [{ id: "d1", name: "book_flight", arguments: { origin: "SFO" } }] }, proxy("no_such_tool", {}, "p2"), "ok"],
      [cancelReservation, bookFlight],
    );
    const byId = (id: string) => agent.messages.find((message) => message.role === "tool" && message.toolCallId === id);
    const searchFirst = `Error (unknown_tool): 'book_flight' is not loaded yet. Call tool_search first (e.g. {"query": "book flight"}); its definition is then added to the conversation and you can call it through call_tool.`;
    expect(byId("p1")).toMatchObject({ isError: true, content: searchFirst });
    expect(byId("d1")).toMatchObject({ isError: true, content: searchFirst });
    expect(byId("p2")?.content).toContain("'no_such_tool' is not a tool tool_search can find.");
  });

  it("does not append a definition twice when a later search finds the same tool", async () => {
    const { agent, parsed } = await runScripted([search("cancel reservation", "s1"), search("cancel the reservation please", "s2"), "ok"], [cancelReservation, bookFlight]);
    const discoveries = agent.messages.filter((message) => message.meta.derived?.kind === "tool_discovery");
    expect(discoveries.map((message) => message.meta.derived)).toEqual([{ kind: "tool_discovery", names: ["cancel_reservation"], toolCallId: "s1" }]);
    const second = agent.messages.find((message) => message.role === "tool" && message.toolCallId === "s2");
    expect(second?.content).toContain("cancel_reservation: Cancel the whole reservation, given its id. (definition already in the conversation)");
    expect(parsed[2]!.messages.at(-1)!.role).toBe("tool");
  });

  it("accepts a discovered tool called directly by name", async () => {
    cancelled.length = 0;
    const { agent } = await runScripted([search("cancel reservation", "s1"), { toolCalls: [{ id: "d1", name: "cancel_reservation", arguments: { reservation_id: "Z9" } }] }, "ok"], [cancelReservation], () => true);
    expect(agent.messages.find((message) => message.role === "tool" && message.toolCallId === "d1")).toMatchObject({ isError: false, content: "Reservation Z9 cancelled." });
  });
});
