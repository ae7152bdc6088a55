import { assembleAgent } from "../../agents/assemble-agent.js";
import type { Agent } from "../../loop/create-agent.js";
import type { ScriptedTurn } from "../../providers/scripted/index.js";
import { createSkillsPolicy } from "../../skills/create-skills-policy.js";
import type { SkillCatalog } from "../../skills/skill.js";
import { connectMcpServers } from "../../mcp/connect-mcp-servers.js";
import { createMcpPolicy } from "../../mcp/create-mcp-policy.js";
import type { McpStdioServerConfig } from "../../mcp/mcp-config.js";
import { ConfigError, derivedOf, type AgentEvent, type ToolDefinition, type ToolMessage } from "../../types/index.js";
import { nodeScriptCommand } from "../node-script-command.js";
import { toBenchTools } from "./disclosure-catalog.js";
import { createWireProvider } from "./wire-provider.js";

/** One step of the scripted run: what the person types and what the model answers, call by call. */
export interface CacheSafetyStep {
  name: string;
  input: string;
  turns: ScriptedTurn[];
}

export interface CacheSafetyResult {
  steps: Array<{ name: string; requests: number }>;
  requests: number;
  /** Cache breaks the prefix guard reported that nobody declared (must be 0). */
  undeclaredBreaks: number;
  declaredBreaks: number;
  /** Consecutive requests whose body (without the tail) is a byte-prefix of the next one's. */
  prefixExtensions: number;
  /** Request numbers (1-based) whose body does not start with the previous body. */
  brokenAt: number[];
  /** Bytes of the last request body. */
  lastBodyBytes: number;
  /** What the run must have done for the check to mean anything. */
  checks: Record<"skillBySlash" | "skillByTool" | "skillFileRead" | "toolsDiscovered" | "discoveredToolCalled" | "mcpDeltaAppended" | "mcpAddedToolCalled", boolean>;
  /** The MCP step: a real stdio server added a tool mid-session (`notifications/tools/list_changed`). */
  mcpListChanged: { server: string; added: string[]; calledTool: string; result: string };
}

/**
 * Cache safety on the wire: lists skills, activates one by `/name` and one by the `skill` tool,
 * reads a skill file, searches tools twice and calls a found tool, then makes a real MCP server
 * (started over stdio) add a tool — its list_changed is announced by an appended delta — and calls the
 * new tool through `call_tool`. Every request is serialized as an OpenAI-compatible server receives
 * it; each body must extend the previous one byte for byte.
 */
export interface CacheSafetyInput {
  skills: SkillCatalog;
  catalog: readonly ToolDefinition[];
  /** A file of the first skill (by name) that the model reads with `skill_file`, relative to its folder. */
  skillFile: string;
  /** The deferred tool the model finds and calls through `call_tool`. */
  target: { name: string; arguments: Record<string, unknown> };
  /** The stdio MCP server whose tool list grows (default: the bench's own, `growing-mcp-server.js`). */
  mcpServer?: McpStdioServerConfig;
}

/** The bench server's name, its tool that adds one, and the tool it adds (see growing-mcp-server.ts). */
const mcpStep = { server: "desk", trigger: "mcp__desk__open_refunds", added: "mcp__desk__issue_refund", arguments: { reservation_id: "8JX2WO", amount: 120 } };

export async function runCacheSafety(input: CacheSafetyInput): Promise<CacheSafetyResult> {
  const [first, second] = [...input.skills.skills].sort((left, right) => (left.name < right.name ? -1 : 1));
  if (!first || !second) throw new ConfigError("option_invalid", "The cache-safety run needs at least two skills; give a skills folder holding two or more (skillsDirectory; CLI: --skills <dir>).");
  const fileOfFirst = input.skillFile;
  const steps: CacheSafetyStep[] = [
    { name: "list skills", input: "Which skills can you use?", turns: [`I can use: ${input.skills.skills.map((skill) => skill.name).join(", ")}.`] },
    { name: "activate by slash", input: `/${second.name} open the latest trace`, turns: ["Opened the trace."] },
    {
      name: "activate by tool, read a file, search twice, call",
      input: "Record the login test, then look up reservation 8JX2WO.",
      turns: [
        { toolCalls: [{ name: "skill", arguments: { name: first.name } }] },
        { toolCalls: [{ name: "skill_file", arguments: { skill: first.name, path: fileOfFirst } }] },
        { toolCalls: [{ name: "tool_search", arguments: { query: "reservation details" } }] },
        { toolCalls: [{ name: "tool_search", arguments: { query: "cancel a reservation" } }] },
        { toolCalls: [{ name: "call_tool", arguments: { name: input.target.name, arguments: input.target.arguments } }] },
        "Recorded the test; reservation 8JX2WO has two flights.",
      ],
    },
    {
      name: "MCP list_changed: a server adds a tool, call it",
      input: "Open the refund desk and refund 120 for reservation 8JX2WO.",
      turns: [
        { toolCalls: [{ name: mcpStep.trigger, arguments: {} }] },
        { toolCalls: [{ name: "call_tool", arguments: { name: mcpStep.added, arguments: mcpStep.arguments } }] },
        "Refunded 120 for 8JX2WO.",
      ],
    },
  ];
  const provider = createWireProvider(steps.flatMap((step) => step.turns));
  // No person to ask in a benchmark: the server's tools run unconfirmed.
  const mcp = await connectMcpServers({ [mcpStep.server]: input.mcpServer ?? growingMcpServer() }, { defer: "never", confirm: "never", startTimeoutMs: 60_000 });
  const mcpPolicy = createMcpPolicy(mcp);
  const events: AgentEvent[] = [];
  const perStep: CacheSafetyResult["steps"] = [];
  let agent: Agent;
  try {
    if (mcp.warnings.length > 0) throw new ConfigError("option_invalid", `The MCP server of the list_changed step did not start: ${mcp.warnings.map((warning) => warning.message).join("; ")}`);
    ({ agent } = await assembleAgent({
      provider,
      system: "You are a careful assistant for web testing and travel bookings.",
      tools: [...toBenchTools(input.catalog, true), ...mcp.tools],
      policies: [createSkillsPolicy(input.skills), mcpPolicy],
      toolSearch: { lateTools: mcp.lateTools },
      runtime: { clock: fixedClock(), createId: counterIds() },
    }));
    for (const step of steps) {
      const before = provider.requests.length;
      for await (const event of agent.run(step.input)) events.push(event);
      perStep.push({ name: step.name, requests: provider.requests.length - before });
    }
  } finally {
    mcpPolicy.dispose();
    await mcp.close();
  }

  const bodies = provider.requests.map((request) => provider.serialize(request));
  const brokenAt: number[] = [];
  for (let index = 1; index < bodies.length; index += 1) {
    const previous = bodies[index - 1]!;
    if (!bodies[index]!.body.startsWith(previous.body.slice(0, previous.prefixLength))) brokenAt.push(index + 1);
  }
  const breaks = events.filter((event): event is Extract<AgentEvent, { type: "cache_break" }> => event.type === "cache_break");
  const messages = agent.messages;
  const toolResult = (name: string) => messages.some((message) => message.role === "tool" && message.toolName === name && !message.isError);
  const delta = messages.map((message) => derivedOf(message, "mcp_tools")).find((derived) => derived !== undefined);
  const addedResult = messages.find((message): message is ToolMessage => message.role === "tool" && message.toolName === mcpStep.added);
  const last = bodies.at(-1);
  return {
    steps: perStep,
    requests: bodies.length,
    undeclaredBreaks: breaks.filter((event) => !event.declared).length,
    declaredBreaks: breaks.filter((event) => event.declared).length,
    prefixExtensions: bodies.length - 1 - brokenAt.length,
    brokenAt,
    lastBodyBytes: last ? Buffer.byteLength(last.body) : 0,
    checks: {
      skillBySlash: messages.some((message) => message.meta.derived?.kind === "skill" && message.meta.derived.via === "slash"),
      skillByTool: messages.some((message) => message.meta.derived?.kind === "skill" && message.meta.derived.via === "tool"),
      skillFileRead: toolResult("skill_file"),
      toolsDiscovered: messages.some((message) => message.meta.derived?.kind === "tool_discovery"),
      discoveredToolCalled: toolResult(input.target.name),
      mcpDeltaAppended: delta?.added.includes(mcpStep.added) === true,
      mcpAddedToolCalled: toolResult(mcpStep.added),
    },
    mcpListChanged: { server: mcpStep.server, added: delta?.added ?? [], calledTool: mcpStep.added, result: addedResult?.content ?? "" },
  };
}

/** The bench's own stdio server (compiled next to this file), started with this Node. */
export function growingMcpServer(): McpStdioServerConfig {
  return { ...nodeScriptCommand(new URL("./growing-mcp-server.js", import.meta.url)), env: {} };
}

export function fixedClock(start = "2026-12-01T00:00:00.000Z"): () => Date {
  let time = Date.parse(start);
  return () => new Date((time += 1000));
}

export function counterIds(prefix = "m"): () => string {
  let counter = 0;
  return () => `${prefix}_${counter++}`;
}
