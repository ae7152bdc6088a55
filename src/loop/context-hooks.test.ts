import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createSessionStore, startSession } from "../session/index.js";
import { ContextOverflowError, type AgentEvent, type Message, type ToolMessage } from "../types/index.js";
import { createAgent } from "./create-agent.js";
import { createTestClock, failingTool, weatherTool } from "./test-support.js";

const weatherTurn = (city: string) => ({ toolCalls: [{ name: "get_weather", arguments: { city } }] });

describe("tool-result processing", () => {
  it("rewrites each result once before it is appended, with call numbers and the error kind", async () => {
    const seen: Array<[string, number, number, string | undefined]> = [];
    const provider = createScriptedProvider({ turns: [weatherTurn("Oslo"), { toolCalls: [{ name: "read_secret", arguments: { path: "x" } }] }, weatherTurn("Rome"), "done"] });
    const agent = createAgent({
      provider,
      system: "s",
      tools: [weatherTool, failingTool],
      prefixGuard: { strict: true },
      context: [{ name: "test", processToolResult: (result, info) => {
        seen.push([info.call.name, info.callNumber, info.totalCallNumber, info.errorKind]);
        return { ...result, content: `[${info.now.toISOString()}] [Tool call #${info.callNumber} for '${result.toolName}']\n${result.content}` };
      } }],
      runtime: { clock: createTestClock() },
    });
    await agent.run("go").result();
    expect(seen).toEqual([
      ["get_weather", 1, 1, undefined],
      ["read_secret", 1, 2, "not_found"],
      ["get_weather", 2, 3, undefined],
    ]);
    const results = agent.messages.filter((message): message is ToolMessage => message.role === "tool");
    expect(results[2]!.content).toMatch(/^\[2026-01-01T00:00:\d\d\.000Z\] \[Tool call #2 for 'get_weather'\]\n/);
    // The stamped text is what every later request carries, unchanged.
    expect(provider.requests.at(-1)!.messages.filter((message) => message.role === "tool")).toEqual(results);
  });
});

describe("context preparation", () => {
  it("appends harness messages without a cache break and records a replacement as a declared one", async () => {
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-hooks-"));
    const store = createSessionStore({ directory });
    const provider = createScriptedProvider({ turns: [weatherTurn("Oslo"), weatherTurn("Rome"), "done"] });
    const tools = [weatherTool];
    const { session } = await startSession(store, { system: "s", tools, provider });
    const events: AgentEvent[] = [];
    const agent = createAgent({
      provider,
      system: "s",
      tools,
      session,
      prefixGuard: { strict: true },
      context: [{ name: "test", prepareContext: ({ iteration, messages }) => {
        if (iteration === 1) return [{ type: "append", messages: [{ role: "user", content: "<note>checked Oslo</note>", meta: { id: "note", origin: "harness", createdAt: "" } }] }];
        if (iteration === 2) {
          const summary: Message = { role: "user", content: "[COMPRESSED] Oslo and Rome looked up.", meta: { id: "summary", origin: "harness", createdAt: "" } };
          return [{ type: "replace", start: 1, end: messages.length, messages: [summary], reason: "test compaction" }];
        }
        return undefined;
      } }],
    });
    for await (const event of agent.run("weather?")) events.push(event);
    await session.close();
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
    expect(events.filter((event) => event.type === "context_edit").map((event) => (event.type === "context_edit" ? event.kind : ""))).toEqual(["append", "replace"]);
    expect(events.find((event) => event.type === "cache_break")).toMatchObject({ declared: true, reason: "test compaction" });
    expect(provider.requests[2]!.messages.map((message) => message.meta.id)).toEqual([provider.requests[0]!.messages[0]!.meta.id, "summary"]);

    const loaded = await store.load(session.id);
    expect(loaded.edits.map((edit) => edit.reason)).toEqual(["test compaction"]);
    expect(loaded.messages.map((message) => message.meta.id)).toEqual(agent.messages.map((message) => message.meta.id));
    expect(loaded.log.length).toBeGreaterThan(loaded.messages.length);
  });

  it("compacts and retries once when the provider reports a context overflow", async () => {
    let calls = 0;
    const provider = createScriptedProvider({
      turns: (request) => {
        calls++;
        return request.messages.length > 2 ? { error: new ContextOverflowError("prompt is too long: 300000 tokens > 200000 maximum") } : "fits now";
      },
    });
    const overflowFlags: boolean[] = [];
    const agent = createAgent({
      provider,
      system: "s",
      messages: [
        { role: "user", content: "old question", meta: { id: "a", origin: "user", createdAt: "" } },
        { role: "assistant", content: [{ type: "text", text: "old answer" }], meta: { id: "b", origin: "model", createdAt: "" } },
      ],
      context: [{ name: "test", prepareContext: ({ overflow, messages }) => {
        overflowFlags.push(overflow);
        return overflow ? [{ type: "replace", start: 0, end: messages.length - 1, messages: [], reason: "overflow compaction" }] : undefined;
      } }],
    });
    const result = await agent.run("new question").result();
    expect(result).toMatchObject({ stopReason: "final_answer", finalText: "fits now" });
    expect(calls).toBe(2);
    expect(overflowFlags).toEqual([false, true]);
  });

  it("fails the run with the overflow error when compaction does not help", async () => {
    const provider = createScriptedProvider({ turns: () => ({ error: new ContextOverflowError("maximum context length is 8192 tokens") }) });
    const agent = createAgent({ provider, system: "s", context: [{ name: "test", prepareContext: () => undefined  }] });
    const result = await agent.run("q").result();
    expect(result).toMatchObject({ stopReason: "error", error: { code: "context_overflow" } });
  });
});
