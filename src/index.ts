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
export { defaultPricingCatalog, estimateCost, findModelPricing, type ModelPricing, type PricingCatalog } from "./session/pricing.js";
export * from "./tokens/index.js";
export { composeContextPolicies, applyEdits } from "./context/compose-context-policies.js";
export type { ContextEdit, ContextPolicy, ContextPreparer, ContextState, ToolResultInfo, ToolResultProcessor } from "./context/context-policy.js";
export { createPrefixGuard, describeCacheBreak, type CacheBreak, type PrefixCheck, type PrefixGuard } from "./context/prefix-guard/index.js";
