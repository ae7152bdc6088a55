import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createStatusBar } from "../context/status-bar/index.js";
import { createAgent } from "../loop/create-agent.js";
import { createTestClock, createTestIds } from "../loop/test-support.js";
import { createOpenAICompatible } from "../providers/openai-compatible/index.js";
import { startOpenAIModelServer, type OpenAIModelServer } from "../testing/openai-model-server.js";
import { commonPrefixLength } from "../tokens/common-prefix-tokens.js";
import { createWorkspaceTools } from "../tools/builtin/index.js";
import type { ModelRequest, ToolMessage } from "../types/index.js";
import { createExploreAgent, createForkAgent } from "./builtin-agents.js";
import { createTaskTool } from "./create-task-tool.js";

const forkInstruction = "Check which file imports handleCallback and report the path only.";
const exploreInstruction = "Which file imports handleCallback? Report the path only.";

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type WireBody = { messages: Array<{ role: string; content?: unknown; tool_call_id?: string }> };

/** The parent greps, reads a file, then hands the same question to `agent`; children answer at once. */
function script(agent: "fork" | "explore") {
  return (body: WireBody) => {
    const last = body.messages.at(-1);
    const lastContent = typeof last?.content === "string" ? last.content : "";
    if (last?.role === "user" && (lastContent === forkInstruction || lastContent === exploreInstruction)) return "src/index.ts";
    const toolResults = body.messages.filter((message) => message.role === "tool").length;
    if (toolResults === 0) return { toolCalls: [{ id: "call_grep", name: "grep", arguments: { pattern: "handleCallback" } }] };
    if (toolResults === 1) return { toolCalls: [{ id: "call_read", name: "read_file", arguments: { path: "src/payment/callbacks.ts" } }] };
    if (toolResults === 2) {
      return { text: "Delegating the last check.", toolCalls: [{ id: "call_task", name: "task", arguments: { agent, description: "find the importer", prompt: agent === "fork" ? forkInstruction : exploreInstruction } }] };
    }
    return "The handler is src/payment/callbacks.ts, imported by src/index.ts.";
  };
}

async function runParent(agent: "fork" | "explore") {
  const workspace = await mkdtemp(join(tmpdir(), "ctxkit-fork-"));
  await mkdir(join(workspace, "src", "payment"), { recursive: true });
  await writeFile(join(workspace, "src", "payment", "callbacks.ts"), "export function handleCallback(event: unknown) {\n  return event;\n}\n".repeat(20));
  await writeFile(join(workspace, "src", "index.ts"), 'import { handleCallback } from "./payment/callbacks.js";\n');
  server = await startOpenAIModelServer(script(agent), { promptCache: "all-requests" });
  const provider = createOpenAICompatible({ model: "gpt-4.1", baseURL: server.baseURL, apiKey: "test-key", env: {} });
  const tools = createWorkspaceTools({ workspace });
  const task = createTaskTool({ agents: [createExploreAgent({ tools }), createForkAgent()], provider, createId: createTestIds("child") });
  const parentRequests: ModelRequest[] = [];
  const parent = createAgent({
    provider,
    system: "You are the main agent.",
    tools: [...tools, task],
    // The status bar sends its tail as the last message of every parent request.
    // A call gate that only looks: it sees every parent request as sent (children do not inherit it).
    context: [createStatusBar({ timestamps: false }), { name: "record-requests", beforeCall: (state) => (parentRequests.push(state.request), { action: "allow" }) }],
    runtime: { clock: createTestClock(), createId: createTestIds() },
  });
  const result = await parent.run("Where is the payment callback handled, and who imports it?").result();
  return { result, provider, parentRequests, wire: server.requests.map((request) => request.body) };
}

describe("fork sub-agent", () => {
  it("sends a first request that extends the parent's last request body (without its tail) byte for byte, and the cache serves that prefix", async () => {
    const { result, provider, parentRequests, wire } = await runParent("fork");
    expect(result.stopReason).toBe("final_answer");
    // Wire order: parent ×3 (the third makes the task call), the fork's call, the parent's answer.
    expect(wire).toHaveLength(5);
    const parentLast = provider.serialize(parentRequests[2]!);
    expect(parentLast.body).toBe(wire[2]);
    expect(parentRequests[2]!.tail).toBeDefined();
    const parentPrefix = parentLast.body.slice(0, parentLast.prefixLength);
    const childFirst = wire[3]!;
    expect(childFirst.startsWith(parentPrefix)).toBe(true);
    expect(childFirst.length).toBeGreaterThan(parentPrefix.length);
    // What follows the parent's prefix: the assistant message with the task call, its placeholder result, the instruction.
    const added = JSON.parse(childFirst) as WireBody;
    const tailMessages = added.messages.slice(-3);
    expect(tailMessages.map((message) => message.role)).toEqual(["assistant", "tool", "user"]);
    expect(tailMessages[1]!.tool_call_id).toBe("call_task");
    expect(tailMessages[2]!.content).toBe(forkInstruction);

    const taskResult = result.messages.find((message): message is ToolMessage => message.role === "tool" && message.toolName === "task")!;
    // The status bar stamps the call number on every result, the answer follows.
    expect(taskResult.content).toBe("[Tool call #1 for 'task'] src/index.ts");
    const firstCall = taskResult.meta.subAgent!.firstCall!;
    expect(firstCall.inputTokens).toBe(Math.ceil(childFirst.length / 4));
    expect(firstCall.cachedInputTokens).toBe(Math.floor(commonPrefixLength(wire[2]!, childFirst) / 4));
    expect(firstCall.cachedInputTokens).toBeGreaterThanOrEqual(Math.floor(parentPrefix.length / 4));
    expect(firstCall.cachedInputTokens / firstCall.inputTokens).toBeGreaterThan(0.9);
  }, 30_000);

  it("an explore child starts from its own prefix instead: its first call is barely cached", async () => {
    const { result } = await runParent("explore");
    const taskResult = result.messages.find((message): message is ToolMessage => message.role === "tool" && message.toolName === "task")!;
    const firstCall = taskResult.meta.subAgent!.firstCall!;
    expect(firstCall.cachedInputTokens / firstCall.inputTokens).toBeLessThan(0.1);
  }, 30_000);
});
