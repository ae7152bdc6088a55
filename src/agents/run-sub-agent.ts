import { inheritPolicies } from "../context/compose-policy-gates.js";
import type { ContextPolicy } from "../context/context-policy.js";
import { assembleAgent } from "./assemble-agent.js";
import type { ToolCallDecision, ToolCallInfo } from "../loop/agent-options.js";
import { failure } from "../loop/execute-tool-calls.js";
import type { Provider } from "../providers/provider.js";
import type { SessionStore, SessionWriter } from "../session/index.js";
import { getTokenCounter } from "../tokens/get-token-counter.js";
import { textOf, type AgentEvent, type Message, type RunResult, type SubAgentRun, type Tool, type ToolContext, type ToolOutput, type ToolSource } from "../types/index.js";
import { boundAnswer } from "./bound-answer.js";
import { forkPrefixMessages, forkResults } from "./fork-messages.js";
import { defaultMaxAnswerTokens, type SubAgentDefinition } from "./sub-agent-definition.js";

/** What every child of one `task` tool shares. */
export interface SubAgentEnvironment {
  provider: Provider;
  sessionStore?: SessionStore;
  workspace?: string;
  confirmToolCall?: (call: ToolCallInfo) => Promise<boolean | ToolCallDecision>;
  clock?: () => Date;
  createId?: () => string;
  /** Sees the child's events as they stream (tracing nests the child's spans under the `task` call's). */
  observeChildRun?: ChildRunObserver;
}

/** Wraps a child run's event stream; `parentToolCallId` is the parent's `task` call. */
export type ChildRunObserver = (events: AsyncIterable<AgentEvent>, child: { agent: string; parentToolCallId: string }) => AsyncIterable<AgentEvent>;

export interface SubAgentCall {
  definition: SubAgentDefinition;
  prompt: string;
  callId: string;
  context: ToolContext;
  /** The `task` tool the child gets in place of its parent's (same definition, one level deeper). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  childTaskTool: Tool<any>;
}

export const defaultSubAgentSystemPrompt = `You are a sub-agent. Another agent gave you one self-contained task; you cannot see its conversation.
Do the task with your tools, then answer with a short, complete report: the facts found (exact paths, names, line numbers) and nothing else.`;

/**
 * Runs one child to its end and turns its outcome into the `task` call's result: the bounded final
 * answer, or the child's stop reason when it failed. The child gets its own session (when a store is
 * given) and the parent's abort signal; its usage goes back on the output for the parent's totals.
 */
export async function runSubAgent(call: SubAgentCall, environment: SubAgentEnvironment): Promise<ToolOutput> {
  const { definition, context } = call;
  const setup = prepareChild(call, environment);
  if ("error" in setup) return failure("failed", setup.error);
  const { system, tools, messages, provider } = setup;
  const own = definition.context?.() ?? [];
  if (definition.fork === true && own.some((policy) => (policy.tools?.length ?? 0) > 0 || policy.system !== undefined)) {
    return failure("failed", `The fork agent '${definition.name}' has context policies that add tools or system sections; a fork must send its parent's prefix unchanged. Remove them from its definition.`);
  }
  const policies = [...own, ...childPolicies(call, own)];
  let session: SessionWriter | undefined;
  let result: RunResult;
  let firstCall: SubAgentRun["firstCall"];
  try {
    // The same assembly step as the parent's: the child's session, its prefix, the inherited policies.
    const assembled = await assembleAgent({
      provider,
      system,
      tools,
      policies,
      messages,
      ...(environment.sessionStore ? { session: { store: environment.sessionStore, mode: "new" as const, ...(environment.workspace ? { workspace: environment.workspace } : {}) } } : {}),
      ...(setup.settings ? { settings: setup.settings } : {}),
      ...(environment.confirmToolCall ? { confirmToolCall: environment.confirmToolCall } : {}),
      runtime: {
        maxIterations: definition.maxIterations ?? 25,
        ...(environment.clock ? { clock: environment.clock } : {}),
        ...(environment.createId ? { createId: environment.createId } : {}),
      },
    });
    session = assembled.session;
    const child = assembled.agent;
    const handle = child.run(call.prompt, { signal: context.signal });
    const events = environment.observeChildRun ? environment.observeChildRun(handle, { agent: definition.name, parentToolCallId: call.callId }) : handle;
    for await (const event of events) {
      if (event.type === "usage" && firstCall === undefined) {
        firstCall = { inputTokens: event.usage.inputTokens, cachedInputTokens: event.usage.cachedInputTokens };
      }
    }
    result = await handle.result();
  } catch (error) {
    return failure("failed", `Sub-agent '${definition.name}' could not run: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await session?.close().catch(() => undefined);
  }
  const link: SubAgentRun = {
    agent: definition.name,
    ...(session ? { sessionId: session.id } : {}),
    stopReason: result.stopReason,
    iterations: result.iterations,
    usage: result.usage,
    provider: provider.name,
    model: provider.model,
    ...(firstCall ? { firstCall } : {}),
  };
  return { ...describeOutcome(result, definition, session?.id), subAgent: link, source: childSource(tools) };
}

const sourceOrder: readonly ToolSource[] = ["trusted", "workspace", "external"];

/**
 * A child's answer carries what its tools read, so it is as untrusted as the least trusted of them
 * (source tags treat it so): workspace data for `explore`, external for a fork of an agent that
 * can fetch pages or call MCP servers.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ChildSetup.tools
function childSource(tools: readonly Tool<any>[]): ToolSource {
  // Never `trusted`: the answer is a model's text, not ctxkit's own state.
  let lowest = sourceOrder.indexOf("workspace");
  for (const tool of tools) lowest = Math.max(lowest, sourceOrder.indexOf(tool.source ?? "workspace"));
  return sourceOrder[lowest]!;
}

interface ChildSetup {
  system: NonNullable<SubAgentDefinition["system"]>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  tools: readonly Tool<any>[];
  messages: Message[];
  provider: Provider;
  settings?: NonNullable<ToolContext["agent"]>["settings"];
}

function prepareChild(call: SubAgentCall, environment: SubAgentEnvironment): ChildSetup | { error: string } {
  const { definition, context, childTaskTool } = call;
  // Nested `task` calls go to the deeper copy, which enforces the depth limit when it runs.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ChildSetup.tools
  const deeper = (tools: readonly Tool<any>[]) => tools.map((tool) => (tool.name === childTaskTool.name ? childTaskTool : tool));
  if (definition.fork !== true) {
    return { system: definition.system ?? defaultSubAgentSystemPrompt, tools: deeper(definition.tools ?? []), messages: [], provider: definition.provider ?? environment.provider };
  }
  const prefixMessages = context.agent && context.messages ? forkPrefixMessages(context.messages, call.callId) : undefined;
  if (!context.agent || !prefixMessages) {
    return { error: `The fork agent '${definition.name}' needs the calling agent's context, which this call did not get (it ran outside an agent loop).` };
  }
  const createId = environment.createId ?? (() => `fork_${call.callId}_${Math.random().toString(36).slice(2, 10)}`);
  const createdAt = (environment.clock?.() ?? new Date()).toISOString();
  return {
    system: context.agent.system,
    tools: deeper(context.agent.tools),
    messages: [...prefixMessages, ...forkResults(prefixMessages, call.callId, () => ({ id: createId(), origin: "harness", createdAt, derived: { kind: "note", policy: "fork" } }))],
    provider: environment.provider,
    ...(context.agent.settings ? { settings: context.agent.settings } : {}),
  };
}

/**
 * What a child inherits from its parent's policies, by each one's `inherit` rule (source tags, the
 * runtime guard and confinement shared, a budget level of its own under the parent's task…). A
 * policy of the definition's own wins over an inherited one of the same name. A fork sends its
 * parent's prefix byte for byte — those policies' tools and sections are already in it — so the
 * inherited copies keep only their hooks.
 */
function childPolicies(call: SubAgentCall, own: readonly ContextPolicy[]): ContextPolicy[] {
  const { definition } = call;
  const fork = definition.fork === true;
  const parent = (call.context.agent?.policies ?? []) as readonly ContextPolicy[];
  const inherited = inheritPolicies(parent, { kind: fork ? "fork" : "task", name: definition.name, ...(definition.budget ? { budget: definition.budget } : {}) });
  const ownNames = new Set(own.map((policy) => policy.name));
  return inherited.filter((policy) => !ownNames.has(policy.name)).map((policy) => (fork ? withoutPrefixContributions(policy) : policy));
}

function withoutPrefixContributions(policy: ContextPolicy): ContextPolicy {
  if (policy.tools === undefined && policy.system === undefined) return policy;
  // A wrapper, not a copy: the hooks keep running on the shared instance's state.
  const hooks = Object.create(policy) as ContextPolicy & { tools?: unknown; system?: unknown };
  Object.defineProperty(hooks, "tools", { value: undefined });
  Object.defineProperty(hooks, "system", { value: undefined });
  return hooks;
}

function describeOutcome(result: RunResult, definition: SubAgentDefinition, sessionId: string | undefined): ToolOutput {
  const counter = getTokenCounter("estimate");
  const maxTokens = definition.maxAnswerTokens ?? defaultMaxAnswerTokens;
  const where = sessionId ? `the whole answer is in sub-agent session ${sessionId}` : "ask for a shorter answer to see the rest";
  if (result.stopReason === "final_answer") {
    const answer = result.finalText.trim() === "" ? "(The sub-agent finished without any answer text.)" : result.finalText;
    return { content: boundAnswer(answer, maxTokens, counter, where).text };
  }
  const reason = result.error ? `${result.stopReason}: ${result.error.message}` : result.stopReason;
  const lastText = [...result.messages].reverse().find((message) => message.role === "assistant" && textOf(message).trim() !== "");
  const partial = lastText?.role === "assistant" ? `\nIts last words: ${boundAnswer(textOf(lastText), Math.min(maxTokens, 300), counter, where).text}` : "";
  const session = sessionId ? ` Its session is ${sessionId}.` : "";
  return failure("failed", `Sub-agent '${definition.name}' stopped without an answer (${reason}).${session}${partial}`);
}
