import { ConfigError, type ModelRequest, type ToolDefinition } from "../../types/index.js";
import { sortKeys } from "../shared/canonical-json.js";
import type { AnthropicTool, AnthropicToolSearchTool } from "./anthropic-wire-types.js";

/**
 * Tool definitions in Anthropic's shape. The order of tools is kept (it is frozen by the caller); the
 * schema's keys are sorted so a schema built in a different key order gives the same bytes.
 */
export function convertToAnthropicTools(tools: ToolDefinition[]): AnthropicTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: sortKeys(tool.parameters),
  }));
}

/**
 * The native form of deferred tools: Anthropic's tool-search server tool, then each deferred tool
 * with `defer_loading: true` ("Deferred tools aren't loaded into Claude's context initially";
 * https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/tool-search-tool). The search tool
 * itself must not be deferred ("All tools have defer_loading set" is a 400).
 */
export function convertToDeferredTools(request: ModelRequest, toolSearch: "bm25" | "regex" | undefined): Array<AnthropicTool | AnthropicToolSearchTool> {
  const deferred = request.deferredTools ?? [];
  if (deferred.length === 0) return [];
  if (toolSearch === undefined) {
    throw new ConfigError("request_invalid", "The request has deferred tools but the Anthropic provider has no tool search; pass createAnthropic({ toolSearch: \"bm25\" }) or leave the tools undeferred.");
  }
  const searchTool: AnthropicToolSearchTool =
    toolSearch === "bm25" ? { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" } : { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" };
  return [searchTool, ...convertToAnthropicTools([...deferred]).map((tool) => ({ ...tool, defer_loading: true as const }))];
}
