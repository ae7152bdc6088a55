import type { Usage } from "./usage.js";

/**
 * What a sub-agent run (a `task` tool call) left behind: which agent ran, the session file it wrote,
 * how it ended and what it used. The tool hands it to the loop on its `ToolOutput`; the loop stores
 * it on the tool message's `meta.subAgent` (never sent to a provider), adds the usage to the parent
 * run's totals, and `ctxkit sessions show` / `ctxkit inspect` read it to draw the session tree.
 */
export interface SubAgentRun {
  /** The agent definition's name (`explore`, `fork`, …). */
  agent: string;
  /** The child's own session id, when the child recorded a session. */
  sessionId?: string;
  /** How the child's run ended (`final_answer` is the only success). */
  stopReason: string;
  /** The child's model calls. */
  iterations: number;
  /** Tokens of every model call the child (and its own children) made. */
  usage: Usage;
  /** The child's provider and model, so its cost is priced with its own prices. */
  provider: string;
  model: string;
  /** Prompt tokens of the child's first call and how many of them the provider served from cache. */
  firstCall?: { inputTokens: number; cachedInputTokens: number };
}
