import { describe, expect, it } from "vitest";
import { createAgent as createBareAgent } from "../../loop/create-agent.js";
import { createTestClock, createTestIds, weatherTool } from "../../loop/test-support.js";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import { defineTool } from "../tool.js";
import { resolveDeferredTools } from "./resolve-deferred-tools.js";
import { carryCheckpoints } from "../../context/carry-checkpoints.js";
import { createToolSearchPolicy } from "./create-tool-search-policy.js";
import { discoveredToolNames } from "./tool-discovery.js";
import { createRelatedWordFileLookup } from "./wordnet-related-words.js";
import { wordNetWeights } from "./tool-search-index.js";
import type { AgentEvent } from "../../types/index.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

// Deferred tools need the tool-search policy, which assembleAgent adds; these tests build the bare agent.
const createAgent = (options: Parameters<typeof createBareAgent>[0]) =>
  createBareAgent({ ...options, ...resolveDeferredTools({ tools: options.tools ?? [], context: options.context ?? [], nativeToolSearch: options.provider.nativeToolSearch === true }) });

const lookup = defineTool<{ id: string }>({
  name: "lookup_order",
  description: "Look up an order by its id.",
  parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  deferred: true,
  async execute({ id }) {
    return `order ${id}: shipped`;
  },
});

describe("the tool-search policy", () => {
  it("keeps discoveries across a restart: a resumed agent calls the found tool without searching again", async () => {
    const first = createScriptedProvider({ turns: [{ toolCalls: [{ id: "s1", name: "tool_search", arguments: { query: "order" } }] }, "Found it."] });
    const agent = createAgent({ provider: first, system: "s", tools: [lookup], runtime: { clock: createTestClock(), createId: createTestIds("a") } });
    await agent.run("Find the order tool.").result();

    const second = createScriptedProvider({ turns: [{ toolCalls: [{ id: "c1", name: "call_tool", arguments: { name: "lookup_order", arguments: { id: "7" } } }] }, "Shipped."] });
    const resumed = createAgent({ provider: second, system: "s", tools: [lookup], messages: [...agent.messages], runtime: { clock: createTestClock(), createId: createTestIds("b") } });
    await resumed.run("Where is order 7?").result();
    expect(resumed.messages.find((message) => message.role === "tool" && message.toolCallId === "c1")).toMatchObject({ isError: false, content: "order 7: shipped" });
    expect(resumed.messages.filter((message) => message.meta.derived?.kind === "tool_discovery")).toHaveLength(1);
  });

  it("searches again for a result whose discovery was not appended before a restart, with the same bytes", async () => {
    const policy = createToolSearchPolicy([lookup]);
    const now = new Date("2026-12-01T00:00:00.000Z");
    const meta = (id: string, origin: "user" | "model" | "tool") => ({ id, origin, createdAt: now.toISOString() });
    const messages = [
      { role: "user" as const, content: "find it", meta: meta("u", "user") },
      { role: "assistant" as const, content: [{ type: "tool_call" as const, id: "s1", name: "tool_search", argumentsText: '{"query":"order"}', arguments: { query: "order" } }], meta: meta("a", "model") },
      { role: "tool" as const, toolCallId: "s1", toolName: "tool_search", content: "Found 1 tool", isError: false, meta: meta("t", "tool") },
    ];
    const edits = await policy.prepareContext!({ messages, prefix: { system: { staticText: "" }, tools: [] }, iteration: 1, now, overflow: false, signal: new AbortController().signal });
    expect(edits).toHaveLength(1);
    const appended = edits![0]!.messages[0]!;
    expect(appended.meta).toEqual({ id: "t~tools", origin: "harness", createdAt: now.toISOString(), derived: { kind: "tool_discovery", names: ["lookup_order"], toolCallId: "s1" } });
    // Once appended, nothing more is owed.
    expect(await policy.prepareContext!({ messages: [...messages, appended], prefix: { system: { staticText: "" }, tools: [] }, iteration: 2, now, overflow: false, signal: new AbortController().signal })).toBeUndefined();
  });

  it("carries found tools across a compaction that removed their discovery message", async () => {
    const provider = createScriptedProvider({ turns: [{ toolCalls: [{ id: "s1", name: "tool_search", arguments: { query: "order" } }] }, "Found it."] });
    const agent = createAgent({ provider, system: "s", tools: [lookup], runtime: { clock: createTestClock(), createId: createTestIds() } });
    await agent.run("Find the order tool.").result();
    const messages = [...agent.messages];
    const policy = createToolSearchPolicy([lookup]);
    const summary = { role: "user" as const, content: "Summary of earlier turns.", meta: { id: "sum", origin: "harness" as const, createdAt: "2026-12-01T00:00:00.000Z" } };
    const [edit] = carryCheckpoints(messages, [{ type: "replace", start: 1, end: messages.length - 1, messages: [summary], reason: "compaction" }], [policy], new Date("2026-12-01T00:00:00.000Z"));
    const after = [...messages.slice(0, 1), ...edit!.messages, ...messages.slice(edit!.type === "replace" ? edit!.end : 0)];
    const checkpoint = after.find((message) => message.meta.derived?.kind === "checkpoint");
    expect(checkpoint?.content).toContain('{"name":"lookup_order","description":"Look up an order by its id."');
    expect(after.some((message) => message.meta.derived?.kind === "tool_discovery")).toBe(false);
    expect([...discoveredToolNames(after)]).toEqual(["lookup_order"]);
  });

  it("defers every tool with deferTools auto when the definitions pass 10% of the window", () => {
    const provider = createScriptedProvider({ turns: ["ok"] });
    const small = createAgent({ provider, system: "s", ...resolveDeferredTools({ tools: [weatherTool, { ...lookup, deferred: false }], deferTools: { mode: "auto", contextWindow: 100_000 } }) });
    expect(small.prefix.tools.map((tool) => tool.name)).toEqual(["get_weather", "lookup_order"]);
    const tiny = createAgent({ provider, system: "s", ...resolveDeferredTools({ tools: [weatherTool, { ...lookup, deferred: false }], deferTools: { mode: "auto", contextWindow: 500 } }) });
    expect(tiny.prefix.tools.map((tool) => tool.name)).toEqual(["call_tool", "tool_search"]);
  });

  it("adds nothing when no tool is deferred", () => {
    const agent = createAgent({ provider: createScriptedProvider({ turns: ["ok"] }), system: "s", tools: [weatherTool] });
    expect(agent.prefix.tools.map((tool) => tool.name)).toEqual(["get_weather"]);
  });

  it("runs on without related words when their table is corrupt, and tells the caller in a warning event", async () => {
    const folder = mkdtempSync(join(tmpdir(), "ctxkit-wordnet-"));
    writeFileSync(join(folder, "related-words.txt.br"), "not brotli at all");
    const relatedWords = createRelatedWordFileLookup(pathToFileURL(join(folder, "related-words.txt.br")));
    const provider = createScriptedProvider({ turns: [{ toolCalls: [{ id: "s1", name: "tool_search", arguments: { query: "order" } }] }, "Found it."] });
    const agent = createBareAgent({
      provider,
      system: "s",
      ...resolveDeferredTools({ tools: [lookup], context: [], toolSearch: { ...wordNetWeights, relatedWords }, nativeToolSearch: false }),
      runtime: { clock: createTestClock(), createId: createTestIds("w") },
    });
    const events: AgentEvent[] = [];
    for await (const event of agent.run("Find the order tool.")) events.push(event);
    expect(events.filter((event) => event.type === "error")).toEqual([]);
    expect(agent.messages.filter((message) => message.meta.derived?.kind === "tool_discovery")).toHaveLength(1);
    const warnings = events.filter((event) => event.type === "warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: "related_words_unavailable", message: expect.stringContaining("could not be read") });
  });
});
