import { describe, expect, it } from "vitest";
import type { Tool, ToolContext } from "../types/index.js";
import { ToolError } from "../types/tool-error.js";
import { createAgent } from "../loop/create-agent.js";
import { createTestClock, createTestIds } from "../loop/test-support.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { ConfigError } from "../types/index.js";
import { createDurableProvider } from "./create-durable-provider.js";
import { createDurableTool } from "./create-durable-tool.js";
import { durableTestContext, recordingStep } from "./test-support/durable-test-context.js";

describe("a durable tool call's step", () => {
  it("is named with the call's id (bounded), so parallel calls replayed in another order cannot swap their results", async () => {
    const names: string[] = [];
    const context = durableTestContext({ step: async <Result>(name: string, work: () => Promise<Result>) => (names.push(name), work()) });
    const read: Tool<{ path: string }> = { name: "read", description: "Reads.", parameters: { type: "object", properties: {} }, risk: "read", execute: async (args) => `read ${args.path}` };
    const wrapped = createDurableTool(read, context, { next: (() => { let n = 0; return () => n++; })() });
    const call = (toolCallId: string, path: string) => wrapped.execute({ path }, { toolCallId } as ToolContext);
    expect(await Promise.all([call("call-a", "a.txt"), call(`call-${"b".repeat(200)}`, "b.txt")])).toEqual([{ content: "read a.txt" }, { content: "read b.txt" }]);
    expect(names).toEqual(["tool:read:call-a", `tool:read:call-${"b".repeat(59)}`]);
  });

  it("records a call the loop's tool timeout stopped as that timeout, not as what the call returned later, and replays it so", async () => {
    const recorded = new Map<string, unknown>();
    const contextReplaying = (replay: boolean) => durableTestContext({ step: recordingStep(recorded, replay, { keyBy: "name" }) });
    let finished = 0;
    // A tool that ignores its signal and succeeds after the loop gave up on it.
    const slow: Tool<Record<string, never>> = {
      name: "slow",
      description: "Slow.",
      parameters: { type: "object", properties: {} },
      risk: "read",
      execute: () => new Promise((resolve) => setTimeout(() => resolve((finished++, "done at last")), 150)),
    };
    const sequence = () => ({ next: (() => { let n = 0; return () => n++; })() });
    const controller = new AbortController();
    // What the loop's runWithTimeout does when the tool's timeout passes.
    const timer = setTimeout(() => controller.abort(new ToolError("timeout", "'slow' did not finish within 20 ms and was stopped. Try a smaller request.")), 20);
    const live = createDurableTool(slow, contextReplaying(false), sequence()).execute({}, { toolCallId: "call-1", signal: controller.signal } as ToolContext);
    await expect(live).rejects.toMatchObject({ kind: "timeout", message: expect.stringContaining("did not finish within 20 ms") });
    clearTimeout(timer);
    expect(recorded.get("tool:slow:call-1")).toMatchObject({ kind: "threw", toolErrorKind: "timeout" });
    expect(finished).toBe(0);
    // Executed again after a crash: the recorded step gives the timeout the run saw.
    const replayed = createDurableTool(slow, contextReplaying(true), sequence()).execute({}, { toolCallId: "call-1", signal: new AbortController().signal } as ToolContext);
    await expect(replayed).rejects.toMatchObject({ kind: "timeout", message: expect.stringContaining("did not finish within 20 ms") });
  });

  it("gives the model the same timeout in a run the loop timed out and in its replay after a crash", async () => {
    const recorded = new Map<string, unknown>();
    const runOnce = async (replay: boolean) => {
      const context = durableTestContext({ step: recordingStep(recorded, replay, { keyBy: "name" }) });
      const slow: Tool<Record<string, never>> = {
        name: "slow",
        description: "Slow.",
        parameters: { type: "object", properties: {} },
        risk: "read",
        timeoutMs: 30,
        execute: () => new Promise((resolve) => setTimeout(() => resolve("done at last"), 300)),
      };
      const provider = createScriptedProvider({ turns: [{ toolCalls: [{ id: "call-1", name: "slow", arguments: {} }] }, { text: "It timed out." }] });
      const sequence = { next: (() => { let n = 0; return () => n++; })() };
      const agent = createAgent({ provider, system: "s", tools: [slow], runtime: { clock: createTestClock(), createId: createTestIds(), wrapTool: (tool) => createDurableTool(tool, context, sequence) } });
      await agent.run("Go.").result();
      return JSON.stringify(agent.messages.find((message) => message.role === "tool"));
    };
    const live = await runOnce(false);
    expect(live).toContain("did not finish within 30 ms");
    // The crash comes once the call's step is recorded (without the fix, only when the tool returned at last).
    for (let waits = 0; waits < 50 && !recorded.has("tool:slow:call-1"); waits++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(recorded.has("tool:slow:call-1")).toBe(true);
    expect(await runOnce(true)).toBe(live);
  });

  it("is refused inside another call's step (a sub-agent given a wrapped tool), before any step or row", async () => {
    const names: string[] = [];
    const context = durableTestContext({ step: async <Result>(name: string, work: () => Promise<Result>) => (names.push(name), work()), inStep: () => true });
    let ran = 0;
    const write: Tool<Record<string, never>> = { name: "write", description: "Writes.", parameters: { type: "object", properties: {} }, risk: "write", execute: async () => (ran++, "written") };
    const wrapped = createDurableTool(write, context, { next: () => 0 });
    const inside = context.scopes.within("tool-0-call-task", async () => wrapped.execute({}, { toolCallId: "call-sub" } as ToolContext));
    await expect(inside).rejects.toBeInstanceOf(ConfigError);
    await expect(inside).rejects.toMatchObject({ code: "option_invalid", message: expect.stringContaining("Give the sub-agent's definition the tool itself") });
    expect({ ran, names }).toEqual({ ran: 0, names: [] });
  });

  it("keys the model calls of a sub-agent it runs under the call with the model's id cut to 64 characters", async () => {
    const modelKeys: string[] = [];
    const context = durableTestContext({ tables: { countModelCall: async (_runId: string, key: string) => void modelKeys.push(key) } });
    const provider = createDurableProvider(createScriptedProvider({ turns: [{ text: "sub-agent's answer" }] }), context, { maxCallTokens: 10_000 });
    // A `task`-like tool: its model call stands for the sub-agent's.
    const task: Tool<Record<string, never>> = {
      name: "task",
      description: "Runs a sub-agent.",
      parameters: { type: "object", properties: {} },
      risk: "read",
      async execute() {
        let text = "";
        for await (const event of provider.stream({ messages: [], tools: [], system: "s" } as never)) if (event.type === "text_delta") text += event.delta;
        return text;
      },
    };
    const id = `call-${"x".repeat(500)}`;
    expect(await createDurableTool(task, context, { next: () => 3 }).execute({}, { toolCallId: id } as ToolContext)).toEqual({ content: "sub-agent's answer" });
    expect(modelKeys).toEqual([`tool-3-${id.slice(0, 64)}/model-0`]);
  });
});
