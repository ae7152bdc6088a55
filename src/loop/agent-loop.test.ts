import { createRepeatedCallLimit } from "../tools/create-repeated-call-limit.js";
import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import type { ScriptedTurn } from "../providers/scripted/index.js";
import type { AgentEvent, ToolMessage } from "../types/index.js";
import { createAgent } from "./create-agent.js";
import { createTestClock, createTestIds, crashingTool, failingTool, weatherTool } from "./test-support.js";

function twentyTurnScript(): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let turn = 0; turn < 19; turn++) {
    const kind = turn % 5;
    if (kind === 0) {
      turns.push({
        text: `Checking turn ${turn}.`,
        toolCalls: [
          { name: "get_weather", arguments: { city: `Vancouver${turn}` } },
          { name: "get_weather", arguments: { city: `Tokyo${turn}` } },
        ],
      });
    } else if (kind === 1) turns.push({ toolCalls: [{ name: "crash", arguments: {} }] });
    else if (kind === 2) turns.push({ toolCalls: [{ name: "no_such_tool", arguments: { x: 1 } }] });
    else if (kind === 3) turns.push({ toolCalls: [{ name: "get_weather", argumentsText: '{"city": ' }] });
    else turns.push({ thinking: "Need a different city.", toolCalls: [{ name: "get_weather", arguments: { town: "Oslo" } }] });
  }
  turns.push("Vancouver is mild today.");
  return turns;
}

describe("agent loop", () => {
  it("completes a 20-turn run with parallel calls, thrown errors, unknown tools and invalid arguments, keeping the prefix byte-stable", async () => {
    const provider = createScriptedProvider({ turns: twentyTurnScript() });
    const agent = createAgent({
      provider,
      system: "You are a weather agent.",
      tools: [weatherTool, crashingTool, failingTool],
      prefixGuard: { strict: true },
      runtime: { clock: createTestClock(), createId: createTestIds() },
    });

    const events: AgentEvent[] = [];
    for await (const event of agent.run("What's the weather in Vancouver?")) events.push(event);

    const end = events.at(-1);
    expect(end).toMatchObject({ type: "run_end", stopReason: "final_answer", iterations: 20, finalText: "Vancouver is mild today." });
    expect(provider.bodies).toHaveLength(20);
    for (let index = 1; index < provider.bodies.length; index++) {
      const previous = provider.bodies[index - 1]!;
      expect(provider.bodies[index]!.body.startsWith(previous.body.slice(0, previous.prefixLength))).toBe(true);
      expect(provider.bodies[index]!.body.length).toBeGreaterThan(previous.prefixLength);
    }

    const results = agent.messages.filter((message): message is ToolMessage => message.role === "tool");
    expect(results.find((result) => result.toolName === "crash")?.content).toBe("Error (failed): 'crash' failed: disk on fire");
    expect(results.find((result) => result.toolName === "no_such_tool")?.content).toBe(
      "Error (unknown_tool): Tool 'no_such_tool' not found. Available tools: get_weather, crash, read_secret.",
    );
    const invalidJson = results.find((result) => result.content.includes("not valid JSON"));
    expect(invalidJson?.isError).toBe(true);
    const invalidArguments = results.find((result) => result.content.includes("Invalid arguments"));
    expect(invalidArguments?.content).toContain("missing required argument 'city'");
    expect(invalidArguments?.content).toContain("unknown argument 'town'");
    // Every tool call has exactly one result, in call order.
    const callIds = agent.messages.flatMap((message) =>
      message.role === "assistant" ? message.content.flatMap((part) => (part.type === "tool_call" ? [part.id] : [])) : [],
    );
    expect(results.map((result) => result.toolCallId)).toEqual(callIds);
  });

  it("runs parallel-safe calls concurrently and appends results in call order", async () => {
    const started: string[] = [];
    const slowTool = {
      ...weatherTool,
      name: "slow_lookup",
      async execute({ city }: { city: string }) {
        started.push(city);
        await new Promise((resolve) => setTimeout(resolve, city === "A" ? 60 : 5));
        return `done ${city}`;
      },
    };
    const provider = createScriptedProvider({
      turns: [{ toolCalls: [{ name: "slow_lookup", arguments: { city: "A" } }, { name: "slow_lookup", arguments: { city: "B" } }] }, "ok"],
    });
    const agent = createAgent({ provider, system: "s", tools: [slowTool] });
    const result = await agent.run("go").result();
    expect(started).toEqual(["A", "B"]);
    const contents = result.messages.filter((message) => message.role === "tool").map((message) => (message as ToolMessage).content);
    expect(contents).toEqual(["done A", "done B"]);
  });

  it("warns on the third identical call and stops on the fourth", async () => {
    const call = { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] };
    const provider = createScriptedProvider({ turns: [call, call, call, call, "never reached"] });
    const agent = createAgent({ provider, system: "s", tools: [weatherTool], context: [createRepeatedCallLimit()] });
    const result = await agent.run("weather?").result();
    expect(result.stopReason).toBe("repeated_tool_call");
    const tools = result.messages.filter((message): message is ToolMessage => message.role === "tool");
    expect(tools.map((message) => message.isError)).toEqual([false, false, true, true]);
    expect(tools[2]!.content).toContain("3 times in a row");
  });

  it("stops at maxIterations with a reason", async () => {
    let city = 0;
    const provider = createScriptedProvider({ turns: () => ({ toolCalls: [{ name: "get_weather", arguments: { city: `C${city++}` } }] }) });
    const agent = createAgent({ provider, system: "s", tools: [weatherTool], runtime: { maxIterations: 4 } });
    const result = await agent.run("loop").result();
    expect(result).toMatchObject({ stopReason: "max_iterations", iterations: 4 });
    expect(result.error?.message).toContain("maxIterations");
  });

  it("keeps the partial turn when aborted mid-stream", async () => {
    const controller = new AbortController();
    const provider = createScriptedProvider({ turns: [{ text: "x".repeat(200), delayMs: 5 }], chunkSize: 10 });
    const agent = createAgent({ provider, system: "s" });
    const handle = agent.run("write", { signal: controller.signal });
    let deltas = 0;
    for await (const event of handle) {
      if (event.type === "text_delta" && ++deltas === 3) controller.abort();
    }
    const result = await handle.result();
    expect(result.stopReason).toBe("aborted");
    const partial = agent.messages.at(-1);
    expect(partial).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(partial?.role === "assistant" && partial.content[0]?.type === "text" && partial.content[0].text.length).toBeGreaterThanOrEqual(30);
  });

  it("times out a slow tool and tells the model", async () => {
    const sleepy = { ...weatherTool, name: "sleepy", timeoutMs: 20, execute: () => new Promise<string>(() => undefined) };
    const provider = createScriptedProvider({ turns: [{ toolCalls: [{ name: "sleepy", arguments: { city: "x" } }] }, "gave up"] });
    const result = await createAgent({ provider, system: "s", tools: [sleepy] }).run("go").result();
    expect(result.messages[2]).toMatchObject({ role: "tool", isError: true });
    expect((result.messages[2] as ToolMessage).content).toContain("did not finish within 20 ms");
  });

  it("asks for confirmation and refuses guarded tools without a handler", async () => {
    const guarded = { ...weatherTool, name: "delete_city", requiresConfirmation: true };
    const script = () => createScriptedProvider({ turns: [{ toolCalls: [{ name: "delete_city", arguments: { city: "Rome" } }] }, "ok"] });
    const refused = await createAgent({ provider: script(), system: "s", tools: [guarded] }).run("go").result();
    expect((refused.messages[2] as ToolMessage).content).toContain("needs the user's approval");

    const asked: unknown[] = [];
    const approved = await createAgent({
      provider: script(),
      system: "s",
      tools: [guarded],
      confirmToolCall: async (call) => {
        asked.push(call.arguments);
        return true;
      },
    })
      .run("go")
      .result();
    expect(asked).toEqual([{ city: "Rome" }]);
    expect((approved.messages[2] as ToolMessage).isError).toBe(false);
  });

  it("lets policies replace tool results and see every request", async () => {
    const seen: number[] = [];
    const provider = createScriptedProvider({ turns: [{ toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }] }, "fine"] });
    const result = await createAgent({
      provider,
      system: "s",
      tools: [weatherTool],
      context: [
        {
          name: "checker",
          processToolResult: (message) => ({ ...message, content: `[checked] ${message.content}` }),
          beforeCall: (state) => {
            seen.push(state.request.messages.length);
            return { action: "allow" };
          },
        },
      ],
    })
      .run("go")
      .result();
    expect((result.messages[2] as ToolMessage).content).toMatch(/^\[checked\] /);
    expect(seen).toEqual([1, 3]);
  });

  it("reports provider errors as a run that ended with an error, not a throw", async () => {
    const { CtxkitError } = await import("../types/index.js");
    const provider = createScriptedProvider({ turns: [{ text: "partial", error: new CtxkitError("provider_http_error", "boom") }] });
    const result = await createAgent({ provider, system: "s" }).run("go").result();
    expect(result).toMatchObject({ stopReason: "error", error: { code: "provider_http_error", message: "boom" } });
  });

  it("reports a request that rewrites history as an undeclared cache break, and stops in strict mode", async () => {
    const turns = ["first", "done"];
    // Nothing in the library rewrites sent messages; a caller that edits the trajectory in place does.
    const rewrite = (agent: ReturnType<typeof createAgent>) => {
      const messages = agent.messages as import("../types/index.js").Message[];
      messages[0] = { ...messages[0], content: "edited" } as (typeof messages)[0];
    };
    const lenient = createAgent({ provider: createScriptedProvider({ turns }), system: "s", tools: [weatherTool] });
    await lenient.run("go").result();
    rewrite(lenient);
    const events: AgentEvent[] = [];
    for await (const event of lenient.run("again")) events.push(event);
    expect(events.find((event) => event.type === "cache_break")).toMatchObject({ layer: "message", index: 0, declared: false });
    expect(events.find((event) => event.type === "warning")).toMatchObject({ code: "undeclared_cache_break" });
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });

    const strict = createAgent({ provider: createScriptedProvider({ turns }), system: "s", tools: [weatherTool], prefixGuard: { strict: true } });
    await strict.run("go").result();
    rewrite(strict);
    const result = await strict.run("again").result();
    expect(result).toMatchObject({ stopReason: "error", error: { code: "prefix_break" } });
  });

  it("records a break announced with declareCacheBreak as declared", async () => {
    const provider = createScriptedProvider({ turns: ["one", "two"] });
    const agent = createAgent({ provider, system: "s", prefixGuard: { strict: true } });
    await agent.run("first").result();
    (agent.messages as import("../types/index.js").Message[]).splice(0, 2, { role: "user", content: "Summary: said hi.", meta: { id: "sum", origin: "harness", createdAt: "" } });
    agent.declareCacheBreak("compaction");
    const events: AgentEvent[] = [];
    for await (const event of agent.run("second")) events.push(event);
    expect(events.find((event) => event.type === "cache_break")).toMatchObject({ declared: true, reason: "compaction" });
    expect(events.at(-1)).toMatchObject({ stopReason: "final_answer" });
  });

  it("fails fast on invalid tool definitions", () => {
    const provider = createScriptedProvider({ turns: [] });
    expect(() => createAgent({ provider, system: "s", tools: [weatherTool, weatherTool] })).toThrow(/unique/);
    expect(() => createAgent({ provider, system: "s", tools: [{ ...weatherTool, parameters: { type: "string" } }] })).toThrow(/object schema/);
  });

  it("compiles a tool's schema on its first call: a schema ajv refuses fails that call, not the agent's creation", async () => {
    const brokenTool = { ...weatherTool, name: "broken", parameters: { type: "object" as const, properties: { city: { type: "no-such-type" } } } };
    const provider = createScriptedProvider({ turns: [{ toolCalls: [{ name: "broken", arguments: { city: "Oslo" } }] }, "done"] });
    const agent = createAgent({ provider, system: "s", tools: [weatherTool, brokenTool] });
    const result = await agent.run("go").result();
    const toolMessage = agent.messages.find((message): message is ToolMessage => message.role === "tool");
    expect(toolMessage?.content).toContain("'broken' cannot be called: its parameters are not a valid JSON Schema.");
    expect(result.stopReason).toBe("final_answer");
  });

  it("puts the tail last and never stores it in the trajectory", async () => {
    const provider = createScriptedProvider({ turns: [{ toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }] }, "done"] });
    const agent = createAgent({ provider, system: "s", tools: [weatherTool], context: [{ name: "test", tail: ({ iteration }) => `<agent_status>call=${iteration}</agent_status>`  }] });
    await agent.run("go").result();
    expect(provider.requests.map((request) => request.tail?.content)).toEqual(["<agent_status>call=0</agent_status>", "<agent_status>call=1</agent_status>"]);
    expect(agent.messages.some((message) => message.meta.origin === "harness")).toBe(false);
    const [first, second] = provider.bodies;
    expect(second!.body.startsWith(first!.body.slice(0, first!.prefixLength))).toBe(true);
  });
});
