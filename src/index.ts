// The `ctxkit` entry: what a library user composes an agent from. Advanced and internal pieces are
// on named subpaths: `ctxkit/context` (policy internals), `ctxkit/session` (records, ledger, cache
// rules), `ctxkit/tokens` (tokenizers, chat templates), `ctxkit/tools` (built-in workspace tools),
// `ctxkit/inspect`, `ctxkit/bench`; providers under `ctxkit/providers/*`, test doubles under
// `ctxkit/testing`. Nothing here loads a tokenizer package: those load on first use.
export * from "./types/index.js";
export * from "./loop/index.js";
export { assembleAgent, defaultPolicies, type AssembleAgentOptions, type AssembleSessionOptions, type AssembledAgent, type StartedSessionView } from "./agents/assemble-agent.js";
export { inheritPolicies } from "./context/compose-policy-gates.js";
export type { CallGate, CallGateState, ChildAgentInfo, FinalTextInfo, FinalTextVerdict, PolicyInheritance, PolicyStop, PolicyWarning, RunStartContribution, ToolCallCheck, ToolCallVerdict } from "./context/policy-gates.js";
export { createBudgetPolicy, type BudgetPolicy, type BudgetPolicyOptions } from "./context/budget/create-budget-policy.js";
export { createRuntimeGuardPolicy } from "./security/create-runtime-guard-policy.js";
export { createLeakWithholding } from "./security/create-leak-withholding.js";
export { createToolOutputCap } from "./tools/create-tool-output-cap.js";
export { createRepeatedCallLimit } from "./tools/create-repeated-call-limit.js";
export { resolveDeferredTools, type DeferredTools, type DeferredToolsInput } from "./tools/search/resolve-deferred-tools.js";
export {
  defineTool,
  ToolError,
  type ObjectSchema,
  type SchemaTool,
  type Tool,
  type ToolArguments,
  type ToolContext,
  type ToolErrorKind,
  type ToolOutput,
} from "./tools/tool.js";
export type { Provider, ProviderEvent, ModelResponse, SerializedRequest } from "./providers/provider.js";
export { createStablePrefix, type StablePrefix } from "./context/stable-prefix.js";
export { createSessionStore, startSession, rebuildRequest, type SessionStore, type LoadedSession, type SessionSummary, type StartSessionOptions, type StartedSession } from "./session/index.js";
export type { SessionWriter } from "./session/index.js";
export { createFileBlobStore } from "./session/blob-store.js";
export { defaultPricingCatalog, estimateCost, findModelPricing, type ModelPricing, type PricingCatalog } from "./session/pricing.js";
export { getTokenCounter } from "./tokens/get-token-counter.js";
export type { TokenCounter, TokenCounterName } from "./tokens/token-counter.js";
export { composeContextPolicies } from "./context/compose-context-policies.js";
export type { ContextEdit, ContextPolicy, ContextPreparer, ContextState, ToolResultInfo, ToolResultProcessor } from "./context/context-policy.js";
export type { ComposedContextPolicy } from "./context/compose-context-policies.js";
export type { ProcessedToolResult, SystemSectionInput, TailState, UserMessageInfo } from "./context/context-policy.js";
export { createPrefixGuard, describeCacheBreak, hashBody, type CacheBreak, type PrefixCheck, type PrefixGuard, type PrefixGuardOptions } from "./context/prefix-guard/index.js";
export {
  compressionPolicyNames,
  createCompression,
  createCompressionPolicy,
  createDeterministicSummarizer,
  createMemoryBlobStore,
  createModelSummarizer,
  type BlobStore,
  type CompressionOptions,
  type CompressionPolicy,
  type CompressionPolicyName,
  type CompressionSettings,
  type CompressionStats,
  type CreateCompressionOptions,
  type ModelSummarizerOptions,
  type Summarizer,
} from "./context/compression/index.js";
export {
  createStatusBar,
  chooseStatusBarMode,
  type StatusBar,
  type StatusBarOptions,
  type StatusBarSettings,
  type StatusBarMode,
  type StatusBarModeDecision,
  type StatusBarModeInputs,
  type TodoItem,
  type TodoStatus,
} from "./context/status-bar/index.js";
export { createRecallTool, type RecallArgs, type RecallToolOptions } from "./tools/recall/index.js";
export { createTodoTools } from "./tools/todo/index.js";
export { detectSystemState, type SystemState } from "./agents/detect-system-state.js";
export { resolveAgentPrefix, type AgentPrefixInput } from "./loop/resolve-agent-prefix.js";
export { verifyRebuiltRequest } from "./session/rebuild-request.js";
