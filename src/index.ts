// The `ctxkit` entry: the curated public surface. Providers live under `ctxkit/providers/*`,
// test doubles under `ctxkit/testing`.
export * from "./types/index.js";
export * from "./loop/index.js";
export { defineTool, ToolError, type Tool, type ToolContext, type ToolErrorKind, type ToolOutput } from "./tools/tool.js";
export type { Provider, ProviderEvent, ModelResponse, SerializedRequest } from "./providers/provider.js";
export { buildModelRequest } from "./context/build-model-request.js";
export { createStablePrefix, type StablePrefix } from "./context/stable-prefix.js";
export {
  createSessionStore,
  startSession,
  rebuildRequest,
  type SessionStore,
  type SessionWriter,
  type LoadedSession,
  type SessionSummary,
  type StartSessionOptions,
  type StartedSession,
} from "./session/index.js";
export { defaultPricingCatalog, estimateCost, costOfCall, findModelPricing, type ModelPricing, type PricingCatalog } from "./session/pricing.js";
export { applyCacheRule, type CacheRuleName, type CacheRuleInput, type CacheOutcome } from "./session/cache-rules.js";
export { buildUsageLedger, appendOnlyLimitTokens, toLedgerCall, type UsageLedger, type LedgerCall, type LedgerEntry, type LedgerTotals } from "./session/usage-ledger.js";
export * from "./tokens/index.js";
export { composeContextPolicies, applyEdits } from "./context/compose-context-policies.js";
export type { ContextEdit, ContextPolicy, ContextPreparer, ContextState, ToolResultInfo, ToolResultProcessor } from "./context/context-policy.js";
export { createPrefixGuard, describeCacheBreak, type CacheBreak, type PrefixCheck, type PrefixGuard } from "./context/prefix-guard/index.js";
export * from "./context/compression/index.js";
export { createFileBlobStore } from "./session/blob-store.js";
export { createRecallTool, type RecallArgs, type RecallToolOptions } from "./tools/recall/index.js";
// The agent status bar (event metadata, the <agent_status> tail, its cost model) and the TODO tools.
export {
  createStatusBar,
  chooseStatusBarMode,
  deriveStatusState,
  renderStatus,
  describeToolError,
  annotateToolResult,
  annotateUserMessage,
  createStatusCheckpointMessage,
  findStatusCheckpoint,
  isStatusMessage,
  replayTodoList,
  type StatusBar,
  type StatusBarOptions,
  type StatusBarSettings,
  type StatusBarMode,
  type StatusBarLimit,
  type StatusBarTarget,
  type StatusBarModeDecision,
  type StatusBarModeInputs,
  type StatusState,
  type StatusCheckpointData,
  type SystemState,
  type TodoItem,
  type TodoStatus,
} from "./context/status-bar/index.js";
export { createTodoTools } from "./tools/todo/index.js";
export { detectSystemState } from "./loop/detect-system-state.js";
export { resolveAgentPrefix, type AgentPrefixInput } from "./loop/resolve-agent-prefix.js";
