// The pure context machinery behind the shipped policies, for ctxkit's own code (request layout, the
// prefix guard, compression and status-bar internals). Users import policies from `ctxkit/policies`.
export { buildModelRequest } from "./build-model-request.js";
export { createStablePrefix, type StablePrefix } from "./stable-prefix.js";
export { composeContextPolicies, applyEdits } from "./compose-context-policies.js";
export type { ContextEdit, ContextPolicy, ContextPreparer, ContextState, ProcessedToolResult, SystemSectionInput, TailState, ToolCallRoute, ToolCallRouter, ToolResultInfo, ToolResultProcessor, UserMessageInfo } from "./context-policy.js";
export * from "./prefix-guard/index.js";
export * from "./compression/index.js";
export * from "./status-bar/index.js";
export { carryCheckpoints } from "./carry-checkpoints.js";
export { toProcessedToolResult } from "./context-policy.js";
export type { ComposedContextPolicy } from "./compose-context-policies.js";
export { createServerCompactionPolicy } from "./server-compaction/server-compaction-policy.js";
export { createResumeAfterCompaction } from "./server-compaction/resume-after-compaction.js";
export { explainCacheMiss, type CacheCallObservation, type CacheMissPrices } from "./cache-miss/explain-cache-miss.js";
