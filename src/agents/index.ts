// Sub-agents (the `task` tool), isolated or forked from the caller's prefix; public on `ctxkit/tools`.
export { createTaskTool, type TaskArguments, type TaskToolOptions } from "./create-task-tool.js";
export { defaultMaxAnswerTokens, type SubAgentDefinition } from "./sub-agent-definition.js";
export { createExploreAgent, createForkAgent, exploreSystemPrompt, exploreToolNames, type ExploreAgentOptions } from "./builtin-agents.js";
export { defaultSubAgentSystemPrompt } from "./run-sub-agent.js";
export type { SubAgentRun } from "../types/index.js";
export { collectSubAgentLinks, sumSubAgentUsage, type SubAgentLink } from "../session/sub-agent-links.js";
export { assembleAgent, defaultPolicies, type AssembleAgentOptions, type AssembleSessionOptions, type AssembledAgent, type StartedSessionView } from "./assemble-agent.js";
