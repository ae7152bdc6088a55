import type { ToolCallDecision, ToolCallInfo } from "../loop/agent-options.js";
import { failure } from "../loop/execute-tool-calls.js";
import type { Provider } from "../providers/provider.js";
import type { SessionStore } from "../session/index.js";
import { ToolDefinitionError, type Tool, type ToolRisk } from "../types/index.js";
import { createConcurrencyLimit } from "./concurrency-limit.js";
import { runSubAgent, type ChildRunObserver, type SubAgentEnvironment } from "./run-sub-agent.js";
import type { SubAgentDefinition } from "./sub-agent-definition.js";

export interface TaskToolOptions {
  /** The agents the model may start; their names and descriptions are listed in the tool's description. */
  agents: readonly SubAgentDefinition[];
  /** The provider children call (an agent's own `provider` wins; a fork always uses this one). */
  provider: Provider;
  /** Where each child writes its own session file (default: children record nothing). */
  sessionStore?: SessionStore;
  /** The workspace recorded in children's sessions (an absolute path). */
  workspace?: string;
  /** Children running at once when one turn makes several `task` calls (default 4); the rest wait. */
  maxConcurrency?: number;
  /** How deep sub-agents may nest (default 1: a child's own `task` calls are refused). */
  maxDepth?: number;
  /** Milliseconds one child may run before it is stopped (default 30 minutes). */
  timeoutMs?: number;
  /** Asked before a child runs a tool that requires confirmation (default: such calls are refused). */
  confirmToolCall?: (call: ToolCallInfo) => Promise<boolean | ToolCallDecision>;
  clock?: () => Date;
  createId?: () => string;
  /** Sees each child's events as they stream (e.g. `createAgentTracing().observeChildRun`). */
  observeChildRun?: ChildRunObserver;
}

export interface TaskArguments {
  agent: string;
  description: string;
  prompt: string;
}

const agentNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The `task` tool: runs a sub-agent on a self-contained prompt and gives the parent only its final
 * answer, so the child's exploration never enters the parent's context. Calls in one turn run
 * concurrently (up to `maxConcurrency`), results in call order. The depth limit is enforced when a
 * nested call runs — children keep the tool's definition byte for byte, which a fork needs.
 */
export function createTaskTool(options: TaskToolOptions): Tool<TaskArguments> {
  // From plain JavaScript a missing list or provider was a TypeError ("reading 'length'"), or failed only when a child ran.
  if (!Array.isArray(options?.agents)) throw new ToolDefinitionError("createTaskTool needs `agents`: a list such as [createExploreAgent({ tools }), createForkAgent()].");
  if (options.provider === null || typeof options.provider !== "object") throw new ToolDefinitionError("createTaskTool needs `provider`: the Provider the children call (usually the parent's).");
  checkAgents(options.agents);
  return createTaskToolAtDepth(options, 0);
}

function createTaskToolAtDepth(options: TaskToolOptions, depth: number): Tool<TaskArguments> {
  const maxDepth = options.maxDepth ?? 1;
  const byName = new Map(options.agents.map((agent) => [agent.name, agent]));
  const limit = createConcurrencyLimit(Math.max(1, options.maxConcurrency ?? 4));
  const environment: SubAgentEnvironment = {
    provider: options.provider,
    ...(options.sessionStore ? { sessionStore: options.sessionStore } : {}),
    ...(options.workspace ? { workspace: options.workspace } : {}),
    ...(options.confirmToolCall ? { confirmToolCall: options.confirmToolCall } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.createId ? { createId: options.createId } : {}),
    ...(options.observeChildRun ? { observeChildRun: options.observeChildRun } : {}),
  };
  let deeper: Tool<TaskArguments> | undefined;
  return {
    name: "task",
    description: describeTaskTool(options.agents),
    parameters: {
      type: "object",
      properties: {
        agent: { type: "string", enum: options.agents.map((agent) => agent.name) },
        description: { type: "string", description: "A 3-8 word label, for the log." },
        prompt: { type: "string", description: "The whole task, self-contained, and what to report back." },
      },
      required: ["agent", "description", "prompt"],
      additionalProperties: false,
    },
    parallelSafe: true,
    risk: riskOf(options.agents),
    // Each call's output says its own source (see `childSource`): an explore answer is workspace data, a fork's may be external.
    source: "workspace",
    timeoutMs: options.timeoutMs ?? 30 * 60_000,
    async execute(args, context) {
      if (depth >= maxDepth) {
        return failure("rejected", `Sub-agents may not start sub-agents here (depth limit ${maxDepth}). Do this task yourself with your other tools.`);
      }
      const definition = byName.get(args.agent);
      if (!definition) {
        return failure("invalid_arguments", `No sub-agent named '${args.agent}'. Available: ${[...byName.keys()].join(", ")}.`);
      }
      deeper ??= createTaskToolAtDepth(options, depth + 1);
      const childTaskTool = deeper;
      return limit(() => runSubAgent({ definition, prompt: args.prompt, callId: context.toolCallId, context, childTaskTool }, environment));
    },
  };
}

const riskOrder: readonly ToolRisk[] = ["read", "write", "exec", "send"];

/**
 * What a call can do is what its children can: the most any agent's tools can do. A fork can do
 * whatever its parent can, which this tool cannot know, so it counts as `send`. Each child's own
 * calls still go through the confirmation callback.
 */
function riskOf(agents: readonly SubAgentDefinition[]): ToolRisk {
  let highest = 0;
  for (const agent of agents) {
    if (agent.fork === true) return "send";
    for (const tool of agent.tools ?? []) {
      highest = Math.max(highest, riskOrder.indexOf(tool.risk ?? (tool.parallelSafe === true ? "read" : "write")));
    }
  }
  return riskOrder[highest]!;
}

function describeTaskTool(agents: readonly SubAgentDefinition[]): string {
  return (
    "Runs a sub-agent on a self-contained task and returns only its final answer: its searching and reading " +
    "stay out of your context. Calls in one turn run in parallel. Agents:\n" +
    agents.map((agent) => `- ${agent.name}: ${agent.description}`).join("\n")
  );
}

function checkAgents(agents: readonly SubAgentDefinition[]): void {
  if (agents.length === 0) throw new ToolDefinitionError("createTaskTool needs at least one agent in `agents`.");
  const seen = new Set<string>();
  for (const agent of agents) {
    if (!agentNamePattern.test(agent.name)) {
      throw new ToolDefinitionError(`Sub-agent name ${JSON.stringify(agent.name)} is invalid: use 1-64 letters, digits, '_' or '-'.`);
    }
    if (seen.has(agent.name)) throw new ToolDefinitionError(`Two sub-agents are named '${agent.name}'; give each a unique name.`);
    seen.add(agent.name);
    if (agent.fork === true && (agent.system !== undefined || agent.tools !== undefined)) {
      throw new ToolDefinitionError(`The fork agent '${agent.name}' cannot have its own system prompt or tools: a fork keeps its parent's. Remove them, or drop \`fork: true\`.`);
    }
  }
}
