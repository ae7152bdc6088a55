// Deferred tools and tool search: a catalog of tools kept out of `tools`, a BM25 index over it,
// the `tool_search` tool and the `call_tool` proxy, as one context policy.
export { createToolSearchIndex, parameterNames, defaultToolSearchIndexOptions, type ToolSearchHit, type ToolSearchIndex, type ToolSearchIndexOptions } from "./tool-search-index.js";
export type { WordVectorLookup } from "./word-vector-neighbours.js";
export { createToolCatalog, type ToolCatalog } from "./tool-catalog.js";
export { createToolSearchPolicy, type ToolSearchPolicy, type ToolSearchPolicyOptions } from "./create-tool-search-policy.js";
export { createToolSearchTool, maxToolSearchLimit, type ToolSearchArgs } from "./create-tool-search-tool.js";
export { createCallToolProxy, unwrapProxyCall, type CallToolArgs } from "./create-call-tool-proxy.js";
export { applyDeferTools, type DeferToolsDecision, type DeferToolsMode, type DeferToolsSettings } from "./apply-defer-tools.js";
export { callToolName, createDiscoveryMessage, createToolSearchCheckpoint, discoveredToolNames, maxCheckpointTools, toolSearchPolicyName, toolSearchToolName } from "./tool-discovery.js";
export { createLateToolSet, type LateToolSet } from "./late-tool-set.js";
export { resolveDeferredTools, type DeferredTools, type DeferredToolsInput } from "./resolve-deferred-tools.js";
export { createSemanticToolSearch, defaultToolSearchEmbeddingOptions, fuseRankings, toolEmbeddingText, type EmbeddingWarning, type SemanticToolSearch, type ToolSearchEmbeddingOptions } from "./semantic-tool-search.js";
export { checkEmbeddings, maxEmbeddingDimensions, type ToolSearchEmbedder } from "./tool-search-embedder.js";
export type { ToolCatalogOptions } from "./tool-catalog.js";
