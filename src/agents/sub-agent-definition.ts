import type { BudgetLimits } from "../types/index.js";
import type { ContextPolicy } from "../context/context-policy.js";
import type { Provider } from "../providers/provider.js";
import type { SystemPrompt, Tool } from "../types/index.js";

/** Tokens of a sub-agent's answer the parent gets before it is cut (with a note), unless the agent sets its own. */
export const defaultMaxAnswerTokens = 1_500;

/**
 * One agent the `task` tool can start. An isolated agent (the default) runs with its own system
 * prompt, tools and context policies and sees only the prompt it is given. A fork (`fork: true`)
 * starts from the calling agent's exact request prefix — its system prompt, tools and trajectory —
 * so the provider's prompt cache serves all of it; it has no system prompt or tools of its own.
 */
export interface SubAgentDefinition {
  /** What the model passes as `agent` (letters, digits, `_` and `-`). */
  name: string;
  /** Written for the model: when to use this agent. Part of the `task` tool's description. */
  description: string;
  /** The child's system prompt (isolated agents; a fork keeps the parent's). */
  system?: string | SystemPrompt;
  /** The child's tools (isolated agents; a fork keeps the parent's, byte for byte). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  tools?: readonly Tool<any>[];
  /**
   * The child's context policies, created fresh for each child (policies keep per-agent state).
   * A fork's policies may not add tools or system sections: its prefix must stay the parent's.
   */
  context?: () => ContextPolicy[];
  /** Tokens of the final answer given to the parent (default 1,500); a longer one is cut with a note. */
  maxAnswerTokens?: number;
  /** Model calls the child may make (default 25). */
  maxIterations?: number;
  /**
   * The child's own budget level under the parent's running task (when the parent has a budget):
   * its calls count against the task and the session too (default: no limit of its own, only theirs).
   */
  budget?: BudgetLimits;
  /** The child's provider (default: the task tool's). A fork always uses the task tool's: the cache is the parent's. */
  provider?: Provider;
  /** Start from the parent's request prefix instead of an empty context. */
  fork?: boolean;
}
