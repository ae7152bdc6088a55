import { createAgent, type Agent } from "../../loop/create-agent.js";
import type { ScriptedTurn } from "../../providers/scripted/index.js";
import { createSkillsPolicy } from "../../skills/create-skills-policy.js";
import type { SkillCatalog } from "../../skills/skill.js";
import { ConfigError, type AgentEvent, type ToolDefinition } from "../../types/index.js";
import { toBenchTools } from "./disclosure-catalog.js";
import { createWireProvider } from "./wire-provider.js";

/** One step of the scripted run: what the person types and what the model answers, call by call. */
export interface CacheSafetyStep {
  name: string;
  input: string;
  turns: ScriptedTurn[];
}

/**
 * Extension point for a step that changes a tool source mid-session — an MCP server's
 * `notifications/tools/list_changed`, announced by an appended delta. Not wired yet: the MCP client
 * is built separately; pass a step here when it lands and the run checks it like the others.
 */
export type McpListChangedStep = (agent: Agent) => CacheSafetyStep | undefined;

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
  checks: Record<"skillBySlash" | "skillByTool" | "skillFileRead" | "toolsDiscovered" | "discoveredToolCalled", boolean>;
  mcpListChanged: "not wired" | "checked";
}

/**
 * Cache safety on the wire: lists skills, activates one by `/name` and one by the `skill` tool,
 * reads a skill file, searches tools twice and calls a found tool, with every request serialized as
 * an OpenAI-compatible server receives it. Each body must extend the previous one byte for byte.
 */
export interface CacheSafetyInput {
  skills: SkillCatalog;
  catalog: readonly ToolDefinition[];
  /** A file of the first skill (by name) that the model reads with `skill_file`, relative to its folder. */
  skillFile: string;
  /** The deferred tool the model finds and calls through `call_tool`. */
  target: { name: string; arguments: Record<string, unknown> };
  mcpListChangedStep?: McpListChangedStep;
}

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
  ];
  const provider = createWireProvider(steps.flatMap((step) => step.turns));
  const agent = createAgent({
    provider,
    system: "You are a careful assistant for web testing and travel bookings.",
    tools: toBenchTools(input.catalog, true),
    context: [createSkillsPolicy(input.skills)],
    clock: fixedClock(),
    createId: counterIds(),
  });
  const events: AgentEvent[] = [];
  const perStep: CacheSafetyResult["steps"] = [];
  const runStep = async (step: CacheSafetyStep) => {
    const before = provider.requests.length;
    for await (const event of agent.run(step.input)) events.push(event);
    perStep.push({ name: step.name, requests: provider.requests.length - before });
  };
  for (const step of steps) await runStep(step);
  const listChanged = input.mcpListChangedStep?.(agent);
  if (listChanged) await runStep(listChanged);

  const bodies = provider.requests.map((request) => provider.serialize(request));
  const brokenAt: number[] = [];
  for (let index = 1; index < bodies.length; index += 1) {
    const previous = bodies[index - 1]!;
    if (!bodies[index]!.body.startsWith(previous.body.slice(0, previous.prefixLength))) brokenAt.push(index + 1);
  }
  const breaks = events.filter((event): event is Extract<AgentEvent, { type: "cache_break" }> => event.type === "cache_break");
  const messages = agent.messages;
  const toolResult = (name: string) => messages.some((message) => message.role === "tool" && message.toolName === name && !message.isError);
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
    },
    mcpListChanged: listChanged ? "checked" : "not wired",
  };
}

export function fixedClock(start = "2026-12-01T00:00:00.000Z"): () => Date {
  let time = Date.parse(start);
  return () => new Date((time += 1000));
}

export function counterIds(prefix = "m"): () => string {
  let counter = 0;
  return () => `${prefix}_${counter++}`;
}
