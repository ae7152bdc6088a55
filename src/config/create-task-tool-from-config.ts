import { createExploreAgent, createForkAgent, createTaskTool } from "../agents/index.js";
import type { ToolCallDecision, ToolCallInfo } from "../loop/agent-options.js";
import type { Provider } from "../providers/provider.js";
import { createWorkspaceTools } from "../tools/builtin/index.js";
import type { Tool } from "../types/index.js";
import type { SessionStore } from "../session/index.js";
import type { AgentConfig } from "./agent-config.js";
import type { ChildRunObserver } from "../agents/run-sub-agent.js";

/**
 * The `task` tool of `ctxkit run` / `chat`: the read-only `explore` agent and `fork`, each child in
 * its own session file beside the parent's (`ctxkit sessions show` lists the links). Absent with
 * `--no-sub-agents`.
 */
export function createTaskToolFromConfig(
  config: AgentConfig,
  options: { provider: Provider; sessionStore: SessionStore; confirmToolCall: (call: ToolCallInfo) => Promise<boolean | ToolCallDecision>; clock?: () => Date; observeChildRun?: ChildRunObserver },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
): Tool<any>[] {
  if (!config.subAgents) return [];
  // explore searches with the read-only workspace tools whatever --tools gave the main agent.
  const readOnlyTools = createWorkspaceTools({ workspace: config.workspace });
  // explore and fork inherit the parent's source tags, role discipline and runtime guard (each
  // policy's `inherit` rule), so what they read is tagged as data the same way.
  const explore = createExploreAgent({ tools: readOnlyTools });
  return [
    createTaskTool({
      agents: [explore, createForkAgent()],
      provider: options.provider,
      sessionStore: options.sessionStore,
      workspace: config.workspace,
      confirmToolCall: options.confirmToolCall,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.observeChildRun ? { observeChildRun: options.observeChildRun } : {}),
    }),
  ];
}
