// The `ctxkit/tools` entry: tools to hand an agent. The built-in workspace tools (each confined to the
// workspace), web_fetch, recall/TODO tools, deferred tools' search index and catalog, and sub-agents
// (the `task` tool with isolated `explore` children and forks). Tools that come with a policy
// (skills, notes, MCP) are created with it, on `ctxkit/policies` and `ctxkit/mcp`.
export { defineTool, ToolError, type Tool, type ToolArguments, type ToolContext, type ToolErrorCode, type ToolErrorKind, type ToolOutput } from "./tools/tool.js";
export {
  builtinToolNames,
  createWorkspaceTools,
  createReadFileTool,
  createWriteFileTool,
  createEditFileTool,
  createListDirTool,
  createGlobTool,
  createGrepTool,
  createBashTool,
  createWebFetchTool,
  type BuiltinToolName,
  type WorkspaceToolsOptions,
  type BashToolOptions,
  type EditFileToolOptions,
  type GlobToolOptions,
  type GrepToolOptions,
  type ListDirToolOptions,
  type ReadFileToolOptions,
  type WriteFileToolOptions,
  type WebFetchToolOptions,
} from "./tools/builtin/index.js";
export { createRecallTool, type RecallToolOptions } from "./tools/recall/index.js";
export { createTodoTools } from "./tools/todo/index.js";
export { createToolSearchIndex, wordNetWeights, type ToolSearchHit, type ToolSearchIndex, type ToolSearchIndexOptions } from "./tools/search/tool-search-index.js";
export type { WordVectorLookup } from "./tools/search/word-vector-neighbours.js";
export type { RelatedWordLookup, RelatedWords } from "./tools/search/wordnet-related-words.js";
export { createToolCatalog, type ToolCatalog, type ToolCatalogOptions } from "./tools/search/tool-catalog.js";
export { createSemanticToolSearch, fuseRankings, toolEmbeddingText, type SemanticToolSearch, type ToolSearchEmbeddingOptions } from "./tools/search/semantic-tool-search.js";
export type { ToolSearchEmbedder } from "./tools/search/tool-search-embedder.js";
export { createTaskTool, createExploreAgent, createForkAgent, type TaskToolOptions, type SubAgentDefinition, type ExploreAgentOptions } from "./agents/index.js";
