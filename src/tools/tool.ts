import type { Tool } from "../types/index.js";

export { ToolError } from "../types/tool-error.js";

export type { Tool, ToolContext, ToolErrorKind, ToolOutput } from "../types/index.js";

export function defineTool<Args = Record<string, unknown>>(tool: Tool<Args>): Tool<Args> {
  return tool;
}
