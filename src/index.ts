// The `ctxkit` entry: what a library user builds an agent from — the agent, tools, sessions, the two
// policies nearly every agent wants (compression, the status bar), pricing, token counts and the
// error classes. Everything else is on one of the curated subpaths (README "Entry points"):
// `ctxkit/tools`, `ctxkit/policies`, `ctxkit/mcp`, `ctxkit/inspect`, `ctxkit/testing` and
// `ctxkit/providers/*`. `test/public-exports.test.ts` holds this entry to at most 40 values and checks
// that importing it loads no benchmark, inspect, viewer, tokenizer or MCP code.
export type * from "./types/index.js";
export {
  CtxkitError,
  ConfigError,
  ContextError,
  ContextOverflowError,
  ProviderError,
  ProviderHttpError,
  SessionError,
  ToolDefinitionError,
  TranscriptError,
  UsageError,
  isCtxkitError,
  textOf,
  thinkingOf,
  toolCallsOf,
  derivedOf,
  emptyUsage,
  addUsage,
} from "./types/index.js";

// The agent and its contracts.
export { createAgent, type Agent, type RunOptions, type RunHandle, type AgentOptions, type AgentRuntime, type SessionSink, type TailState, type ToolCallDecision, type ToolCallInfo } from "./loop/index.js";
// The one assembly step: provider, system prompt, tools, policies and a session in, a running agent out.
export { assembleAgent, defaultPolicies, type AssembleAgentOptions, type AssembleSessionOptions, type AssembledAgent, type StartedSessionView } from "./agents/assemble-agent.js";
// The agent `ctxkit run` builds, from the settings of a ctxkit.config.json: the CLI calls the same function.
export { createAgentFromConfig, type ConfiguredAgent, type CreateAgentFromConfigOptions } from "./config/create-agent-from-config.js";
export type { AgentConfig } from "./config/agent-config.js";
export type { ConfigFile } from "./config/config-schema.js";
export type { CallGate, CallGateState, ChildAgentInfo, FinalTextInfo, FinalTextVerdict, PolicyInheritance, PolicyStop, PolicyWarning, RunStartContribution, ToolCallCheck, ToolCallVerdict } from "./context/policy-gates.js";
export { defineTool, ToolError, type ObjectSchema, type SchemaTool, type Tool, type ToolArguments, type ToolContext, type ToolErrorCode, type ToolErrorKind, type ToolOutput } from "./tools/tool.js";
export type { Provider, ProviderEvent, ProviderSpecificationVersion, ModelResponse, SerializedRequest } from "./providers/provider.js";
export type { StablePrefix } from "./context/stable-prefix.js";
export { composeContextPolicies, type ComposedContextPolicy } from "./context/compose-context-policies.js";
export type {
  ContextEdit,
  ContextPolicy,
  ContextPreparer,
  ContextState,
  ProcessedToolResult,
  SystemSectionInput,
  ToolResultInfo,
  ToolResultProcessor,
  UserMessageInfo,
} from "./context/context-policy.js";

// Sessions and blobs.
export { createSessionStore, startSession, rebuildRequest, type SessionStore, type LoadedSession, type SessionSummary, type StartSessionOptions, type StartedSession, type SessionWriter } from "./session/index.js";
export { createFileBlobStore } from "./session/blob-store.js";
// A JSONL session's lock that its writer left behind on another host (or that cannot be read): only a person can say it is dead.
export { unlockSessionFile } from "./session/session-file-lock.js";
export type { LockOwner } from "./session/session-lock-owner.js";
export { createPostgresSessionStore, type PostgresSessionStore, type PostgresSessionStoreOptions } from "./session/create-postgres-session-store.js";
export { createMemoryBlobStore, type BlobStore } from "./context/compression/blob-store.js";

// Pricing and token counts.
export { defaultPricingCatalog, estimateCost, findModelPricing, type ModelPricing, type PricingCatalog } from "./tokens/pricing.js";
export { getTokenCounter } from "./tokens/get-token-counter.js";
export type { TokenCounter, TokenCounterName } from "./tokens/token-counter.js";

// The two policies most agents use; the rest are on `ctxkit/policies`.
export { createCompression, type CompressionOptions, type CompressionPolicy, type CompressionPolicyName, type CompressionSettings, type CompressionStats, type CreateCompressionOptions } from "./context/compression/index.js";
export { createStatusBar, type StatusBar, type StatusBarOptions, type StatusBarSettings, type StatusBarMode, type TodoItem, type TodoStatus } from "./context/status-bar/index.js";
export { detectSystemState, type SystemState } from "./agents/detect-system-state.js";
export { createAgentTracing, traceAgentRun, type AgentTracing, type AgentTracingOptions, type TraceRunOptions } from "./tracing/index.js";
