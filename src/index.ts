// The `ctxkit` entry: the curated public surface. Providers live under `ctxkit/providers/*`,
// test doubles under `ctxkit/testing`.
export * from "./types/index.js";
export * from "./loop/index.js";
export { defineTool, ToolError, type Tool, type ToolContext, type ToolErrorKind, type ToolOutput } from "./tools/tool.js";
export type { Provider, ProviderEvent, ModelResponse, SerializedRequest } from "./providers/provider.js";
export { buildModelRequest } from "./context/build-model-request.js";
export { createStablePrefix, type StablePrefix } from "./context/stable-prefix.js";
