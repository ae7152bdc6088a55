import { assembleAgent } from "../agents/assemble-agent.js";
import type { Agent } from "../loop/create-agent.js";
import type { AgentOptions, ToolCallDecision, ToolCallInfo } from "../loop/agent-options.js";
import type { Provider } from "../providers/provider.js";
import type { ContextPolicy } from "../context/context-policy.js";
import type { SessionStore } from "../session/session-store.js";
import type { BudgetApprovalRequest, Tool } from "../types/index.js";
import type { NotesReplay } from "../tools/notes/index.js";

/**
 * What a worker hands a run's builder: the places where durability enters an ordinary agent. The
 * builder assembles the agent as it would in one process and passes these through, so the loop
 * and the policies never know they run on a worker.
 */
export interface DurableAssembly {
  /** Creates the run's session (its id fixed at submission) once, and replays it on later attempts. */
  sessionStore: SessionStore;
  /** The run's clock: moves only at steps, so a replay writes the same timestamps. */
  clock: () => Date;
  /** Policies the worker adds to the run's agent (a shared budget's slow-down and warnings); pass them on. */
  policies?: readonly ContextPolicy[];
  /** Message ids derived from the run's id: a replay writes the same ids (and tag nonces). */
  createId: () => string;
  /** Each model call one step (and a shared budget's reservation); `maxCallTokens` is what a call may use at most. */
  wrapProvider(provider: Provider, maxCallTokens: number): Provider;
  /**
   * Each tool call one step; a non-idempotent one is recorded as started before it runs. For the
   * run's own tools: a wrapped tool called inside another call's step (given to a sub-agent) is refused.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
  wrapTool(tool: Tool<any>): Tool<any>;
  /** A question for a person pauses the run as `needs_confirmation` until `ctxkit runs resume`. */
  confirmToolCall(call: ToolCallInfo): Promise<boolean | ToolCallDecision>;
  confirmBudget(request: BudgetApprovalRequest): Promise<boolean>;
  /**
   * For the run's notes (`createNotes`'s `replay`): the notes the run started with are recorded,
   * and put back when it is executed again after a crash, so its requests get the same notes line;
   * the notes tools then run again instead of being steps (they are deterministic given the notes).
   */
  notesReplay?: NotesReplay;
}

/** A run's agent as a worker runs it, and what ends what it holds (its session, MCP servers). */
export interface DurableAgent {
  agent: Agent;
  close(): Promise<void>;
}

/** Builds a run's agent from its stored spec; must give the same agent every time for the same input. */
export type DurableAgentBuilder = (input: Record<string, unknown>, assembly: DurableAssembly) => Promise<DurableAgent>;

/** An agent given as parts (a scripted one, say), for `assembleDurableParts`. */
export interface DurableAgentParts {
  provider: Provider;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
  tools: readonly Tool<any>[];
  system: string;
  policies?: readonly ContextPolicy[];
  maxIterations?: number;
  /** Generation settings of every request (its `maxOutputTokens` is also what a shared budget reserves for the output). */
  settings?: AgentOptions["settings"];
  /** Absolute path recorded in the session header. */
  workspace?: string;
  /** The most tokens one model call may use (prompt + output): what a shared budget reserves per call. */
  maxCallTokens: number;
}

/** Assembles an agent from parts with the worker's durable hooks (the one assembly step, `assembleAgent`). */
export async function assembleDurableParts(parts: DurableAgentParts, assembly: DurableAssembly): Promise<DurableAgent> {
  const assembled = await assembleAgent({
    provider: assembly.wrapProvider(parts.provider, parts.maxCallTokens),
    system: parts.system,
    tools: parts.tools,
    policies: [...(parts.policies ?? []), ...(assembly.policies ?? [])],
    session: { store: assembly.sessionStore, mode: "new", ...(parts.workspace ? { workspace: parts.workspace } : {}) },
    confirmToolCall: (call) => assembly.confirmToolCall(call),
    ...(parts.settings ? { settings: parts.settings } : {}),
    runtime: { clock: assembly.clock, createId: assembly.createId, wrapTool: (tool) => assembly.wrapTool(tool), ...(parts.maxIterations ? { maxIterations: parts.maxIterations } : {}) },
  });
  return { agent: assembled.agent, close: async () => void (await assembled.session?.close()) };
}
