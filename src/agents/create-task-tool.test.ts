import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent } from "../loop/create-agent.js";
import { createTestClock, createTestIds } from "../loop/test-support.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createWorkspaceTools } from "../tools/builtin/index.js";
import { defineTool } from "../tools/tool.js";
import type { AgentEvent, ModelRequest, ToolMessage } from "../types/index.js";
import { createExploreAgent, createForkAgent } from "./builtin-agents.js";
import { createTaskTool } from "./create-task-tool.js";
import { createBudget } from "../context/budget/index.js";
import { createBudgetPolicy } from "../context/budget/create-budget-policy.js";

const parentSecret = "PARENT-ONLY: the customer's order number is 88-1234";

async function createWorkspace(): Promise<string> {
  const workspace = await mkdtemp(join(tmpdir(), "ctxkit-task-"));
  await mkdir(join(workspace, "src", "payment"), { recursive: true });
  await writeFile(join(workspace, "src", "payment", "callbacks.ts"), "export function handleCallback(event: unknown) {\n  return event;\n}\n");
  await writeFile(join(workspace, "src", "index.ts"), 'import { handleCallback } from "./payment/callbacks.js";\n');
  return workspace;
}

const textOfRequest = (request: ModelRequest) => JSON.stringify({ system: request.system, messages: request.messages, tail: request.tail ?? null });
const toolResults = (messages: readonly { role: string }[]) => messages.filter((message): message is ToolMessage => message.role === "tool");

describe("the task tool", () => {
  it("runs an explore child that sees only its prompt, its own system prompt and read-only tools; the parent gets the answer", async () => {
    const workspace = await createWorkspace();
    const tools = createWorkspaceTools({ workspace });
    const child = createScriptedProvider({
      turns: [
        { toolCalls: [{ name: "grep", arguments: { pattern: "handleCallback" } }] },
        { toolCalls: [{ name: "read_file", arguments: { path: "src/payment/callbacks.ts" } }] },
        "handleCallback is defined in src/payment/callbacks.ts:1 and imported by src/index.ts:1.",
      ],
    });
    const parent = createScriptedProvider({
      turns: [
        { text: "Let me delegate.", toolCalls: [{ id: "call_task", name: "task", arguments: { agent: "explore", description: "find the callback handler", prompt: "Where is the payment callback handled? Give path and line." } }] },
        "It is handled in src/payment/callbacks.ts.",
      ],
    });
    const task = createTaskTool({ agents: [createExploreAgent({ tools })], provider: child, clock: createTestClock(), createId: createTestIds("child") });
    const agent = createAgent({ provider: parent, system: "You are the main agent.", tools: [...tools, task], runtime: { clock: createTestClock(), createId: createTestIds() } });

    const result = await agent.run(`${parentSecret}. Find where the payment callback is handled.`).result();

    expect(result.stopReason).toBe("final_answer");
    expect(child.requests).toHaveLength(3);
    for (const request of child.requests) {
      expect(textOfRequest(request)).not.toContain("PARENT-ONLY");
      expect(textOfRequest(request)).not.toContain("Let me delegate");
      expect(request.tools.map((tool) => tool.name)).toEqual(["glob", "grep", "list_dir", "read_file"]);
      expect(request.system.staticText).toContain("You are explore");
    }
    expect(child.requests[0]!.messages).toHaveLength(1);
    expect(child.requests[0]!.messages[0]).toMatchObject({ role: "user", content: "Where is the payment callback handled? Give path and line." });
    const [taskResult] = toolResults(result.messages);
    expect(taskResult).toMatchObject({ toolName: "task", isError: false, content: "handleCallback is defined in src/payment/callbacks.ts:1 and imported by src/index.ts:1." });
    expect(taskResult!.meta.subAgent).toMatchObject({ agent: "explore", stopReason: "final_answer", iterations: 3, provider: "scripted" });
    // The child's grep and read_file output stayed in the child: the parent's next request holds only the answer.
    expect(JSON.stringify(parent.requests[1]!.messages)).not.toContain("return event");
  });

  it("cuts an over-long answer to the agent's token bound with a note saying so", async () => {
    const longAnswer = Array.from({ length: 400 }, (_, index) => `line ${index}: src/file${index}.ts handles case ${index}`).join("\n");
    const child = createScriptedProvider({ turns: [longAnswer] });
    const parent = createScriptedProvider({
      turns: [{ toolCalls: [{ name: "task", arguments: { agent: "explore", description: "list handlers", prompt: "List every handler." } }] }, "Done."],
    });
    const task = createTaskTool({ agents: [{ ...createExploreAgent({ tools: [] }), maxAnswerTokens: 200 }], provider: child });
    const agent = createAgent({ provider: parent, system: "main", tools: [task] });
    const result = await agent.run("go").result();
    const [taskResult] = toolResults(result.messages);
    expect(taskResult!.content.length).toBeLessThan(longAnswer.length / 4);
    expect(taskResult!.content.startsWith("line 0: src/file0.ts handles case 0")).toBe(true);
    expect(taskResult!.content).toMatch(/\[The sub-agent's answer was cut at 200 of its [\d,]+ tokens; ask for a shorter answer to see the rest\.\]$/);
  });

  it("gives the parent the child's stop reason when the child fails", async () => {
    const child = createScriptedProvider({ turns: [{ toolCalls: [{ name: "grep", arguments: { pattern: "x" } }] }] });
    const parent = createScriptedProvider({
      turns: [{ toolCalls: [{ name: "task", arguments: { agent: "explore", description: "search", prompt: "Search x." } }] }, "ok"],
    });
    const workspace = await createWorkspace();
    const task = createTaskTool({ agents: [{ ...createExploreAgent({ tools: createWorkspaceTools({ workspace }) }), maxIterations: 1 }], provider: child });
    const result = await createAgent({ provider: parent, system: "main", tools: [task] }).run("go").result();
    const [taskResult] = toolResults(result.messages);
    expect(taskResult!.isError).toBe(true);
    expect(taskResult!.content).toContain("Sub-agent 'explore' stopped without an answer (max_iterations: Stopped after 1 model calls");
    expect(taskResult!.meta.subAgent?.stopReason).toBe("max_iterations");
  });

  it("runs several task calls of one turn concurrently up to the limit, results in call order", async () => {
    let running = 0;
    let mostAtOnce = 0;
    // The children finish in reverse call order (later prompts answer sooner).
    const child = createScriptedProvider({
      turns: (request) => {
        const prompt = String(request.messages[0]?.content);
        const number = Number(/#(\d)/.exec(prompt)?.[1]);
        return { text: `answer ${number}`, delayMs: (5 - number) * 40 };
      },
    });
    const tracked = {
      ...child,
      async *stream(request: ModelRequest, signal?: AbortSignal) {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        try {
          yield* child.stream(request, signal);
        } finally {
          running -= 1;
        }
      },
    };
    const calls = [1, 2, 3, 4].map((number) => ({ name: "task", arguments: { agent: "explore", description: `part ${number}`, prompt: `Look at part #${number}.` } }));
    const parent = createScriptedProvider({ turns: [{ toolCalls: calls }, "all done"] });
    const task = createTaskTool({ agents: [createExploreAgent({ tools: [] })], provider: tracked, maxConcurrency: 2 });
    const result = await createAgent({ provider: parent, system: "main", tools: [task] }).run("go").result();
    expect(toolResults(result.messages).map((message) => message.content)).toEqual(["answer 1", "answer 2", "answer 3", "answer 4"]);
    expect(mostAtOnce).toBe(2);
  }, 30_000);

  it("aborts the children when the parent run is aborted", async () => {
    const child = createScriptedProvider({ turns: [{ text: "a slow answer that streams for a long time", delayMs: 200 }] });
    let childStopped: (aborted: boolean) => void = () => undefined;
    const childEnded = new Promise<boolean>((resolve) => (childStopped = resolve));
    const watched = {
      ...child,
      async *stream(request: ModelRequest, signal?: AbortSignal) {
        try {
          yield* child.stream(request, signal);
        } finally {
          childStopped(signal?.aborted === true);
        }
      },
    };
    const parent = createScriptedProvider({
      turns: [{ toolCalls: [{ name: "task", arguments: { agent: "explore", description: "slow", prompt: "Take your time." } }] }, "never"],
    });
    const task = createTaskTool({ agents: [createExploreAgent({ tools: [] })], provider: watched });
    const controller = new AbortController();
    const agent = createAgent({ provider: parent, system: "main", tools: [task] });
    const events: AgentEvent[] = [];
    for await (const event of agent.run("go", { signal: controller.signal })) {
      events.push(event);
      if (event.type === "turn_end") setTimeout(() => controller.abort(), 50);
    }
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "aborted" });
    // The child's model call saw the abort and ended (it would otherwise stream for 600 ms more).
    expect(await childEnded).toBe(true);
    expect(child.requests).toHaveLength(1);
    expect(parent.requests).toHaveLength(1);
  }, 30_000);

  it("refuses a nested task call at the depth limit while the child keeps the task tool byte for byte", async () => {
    const provider = createScriptedProvider({
      turns: (request) => {
        const last = request.messages.at(-1);
        if (request.messages.length === 1) return { toolCalls: [{ id: "outer", name: "task", arguments: { agent: "fork", description: "side task", prompt: "Delegate again." } }] };
        if (last?.role === "user" && last.content === "Delegate again.") {
          return { toolCalls: [{ id: "inner", name: "task", arguments: { agent: "fork", description: "nested", prompt: "Nested." } }] };
        }
        if (last?.role === "tool" && last.toolCallId === "inner") return `child saw: ${last.content}`;
        return "parent done";
      },
    });
    const task = createTaskTool({ agents: [createForkAgent()], provider });
    const agent = createAgent({ provider, system: "main", tools: [task] });
    const result = await agent.run("go").result();
    expect(result.finalText).toBe("parent done");
    const [outer] = toolResults(result.messages);
    expect(outer!.content).toBe("child saw: Error (rejected): Sub-agents may not start sub-agents here (depth limit 1). Do this task yourself with your other tools.");
    const childRequest = provider.requests[1]!;
    expect(childRequest.tools).toEqual(provider.requests[0]!.tools);
  });

  it("adds the children's tokens to the parent's usage and reports them apart", async () => {
    const child = createScriptedProvider({ turns: [{ text: "child answer", usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 50 } }] });
    const parent = createScriptedProvider({
      turns: [
        { toolCalls: [{ name: "task", arguments: { agent: "explore", description: "x", prompt: "y" } }], usage: { inputTokens: 100, cachedInputTokens: 0, outputTokens: 10 } },
        { text: "done", usage: { inputTokens: 200, cachedInputTokens: 100, outputTokens: 5 } },
      ],
    });
    const task = createTaskTool({ agents: [createExploreAgent({ tools: [] })], provider: child });
    const events: AgentEvent[] = [];
    for await (const event of createAgent({ provider: parent, system: "main", tools: [task] }).run("go")) events.push(event);
    const end = events.at(-1);
    expect(end).toMatchObject({
      type: "run_end",
      usage: { inputTokens: 1300, cachedInputTokens: 100, outputTokens: 65 },
      subAgentUsage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 50 },
    });
  });

  it("rejects agent definitions no model could call, before any run", () => {
    const provider = createScriptedProvider({ turns: [] });
    expect(() => createTaskTool({ agents: [], provider })).toThrow(/at least one agent/);
    expect(() => createTaskTool({ agents: [createForkAgent(), createForkAgent()], provider })).toThrow(/Two sub-agents are named 'fork'/);
    const lookup = defineTool({ name: "lookup", description: "d", parameters: { type: "object", properties: {} }, async execute() { return ""; } });
    expect(() => createTaskTool({ agents: [{ ...createForkAgent(), tools: [lookup] }], provider })).toThrow(/cannot have its own system prompt or tools/);
  });

  it("charges the children's calls to the parent's budget, and stops a child at its own limit", async () => {
    const child = createScriptedProvider({
      turns: [
        { toolCalls: [{ name: "lookup", arguments: {} }], usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 50 } },
        { text: "never sent", usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 50 } },
      ],
    });
    const parent = createScriptedProvider({
      turns: [
        { toolCalls: [{ name: "task", arguments: { agent: "explore", description: "x", prompt: "y" } }], usage: { inputTokens: 100, cachedInputTokens: 0, outputTokens: 10 } },
        { text: "done", usage: { inputTokens: 200, cachedInputTokens: 0, outputTokens: 5 } },
      ],
    });
    const lookup = defineTool({ name: "lookup", description: "Looks something up.", parameters: { type: "object", properties: {} }, parallelSafe: true, async execute() { return "x".repeat(4000); } });
    // The child has room for one call (estimated prompt + 4,096 output tokens), not two; the session for everything.
    const explore = { ...createExploreAgent({ tools: [lookup] }), budget: { tokens: 5000, mode: "hard" as const } };
    const budget = createBudget({ session: { tokens: 100_000 }, backpressure: false });
    const task = createTaskTool({ agents: [explore], provider: child });
    const result = await createAgent({ provider: parent, system: "main", tools: [task], settings: { maxOutputTokens: 100 }, context: [createBudgetPolicy(budget)] }).run("go").result();

    expect(child.requests).toHaveLength(1);
    const [taskResult] = toolResults(result.messages);
    expect(taskResult!.isError).toBe(true);
    expect(taskResult!.content).toContain("budget_exceeded");
    const session = budget.status().find((level) => level.level === "session")!;
    // Parent calls (110 + 205) and the child's one call (1050), each counted once.
    expect(session.spent.tokens).toBe(1365);
  });
});

describe("the source of a task call's result", () => {
  const fetchPage = defineTool({ name: "fetch_page", description: "Fetches a page.", parameters: { type: "object", properties: {} }, source: "external", parallelSafe: true, async execute() { return "page"; } });
  const readNote = defineTool({ name: "read_note", description: "Reads a note.", parameters: { type: "object", properties: {} }, parallelSafe: true, async execute() { return "note"; } });

  async function sourceOfCall(agents: Parameters<typeof createTaskTool>[0]["agents"], agent: string, parentTools = [readNote]) {
    const child = createScriptedProvider({ turns: ["The answer."] });
    const parent = createScriptedProvider({
      turns: [{ toolCalls: [{ id: "call_task", name: "task", arguments: { agent, description: "look", prompt: "Look it up." } }] }, "Done."],
    });
    const task = createTaskTool({ agents, provider: child, clock: createTestClock(), createId: createTestIds("child") });
    const sources: Array<string | undefined> = [];
    const recorder = { name: "recorder", processToolResult(message: ToolMessage, info: { source?: string }) { sources.push(info.source); return message; } };
    const agentUnderTest = createAgent({ provider: parent, system: "Main.", tools: [...parentTools, task], context: [recorder], runtime: { clock: createTestClock(), createId: createTestIds() } });
    await agentUnderTest.run("Go.").result();
    return sources[0];
  }

  it("is the least trusted source among the child's tools: workspace for reading tools, external for a fetching one", async () => {
    const explore = (tools: Parameters<typeof createExploreAgent>[0]["tools"]) => ({ ...createExploreAgent({ tools }), tools });
    expect(await sourceOfCall([explore([readNote])], "explore")).toBe("workspace");
    expect(await sourceOfCall([explore([readNote, fetchPage])], "explore")).toBe("external");
  });

  it("is external for a fork of an agent that can fetch pages", async () => {
    expect(await sourceOfCall([createForkAgent()], "fork", [readNote, fetchPage])).toBe("external");
    expect(await sourceOfCall([createForkAgent()], "fork", [readNote])).toBe("workspace");
  });
});
