import type { ToolDefinition } from "../../types/index.js";
import { convertToOpenAITools } from "../openai-compatible/convert-to-openai-tools.js";
import type { ResponsesFunctionTool, ResponsesTool } from "./responses-wire-types.js";

/**
 * Translates tool definitions into Responses `tools`: the core tools first, then — with native tool
 * search — the deferred ones with `defer_loading: true` and one `{"type":"tool_search"}` tool, so the
 * API searches them itself and the model calls a found tool directly ("tools with defer_loading are
 * only visible to the model through tool search", OpenAI's tool-search guide). Names and schemas are
 * checked and canonicalised exactly as for Chat Completions, so the bytes do not depend on key order.
 */
export function convertToResponsesTools(tools: readonly ToolDefinition[], deferred: readonly ToolDefinition[] = []): ResponsesTool[] {
  // One check over both lists: a deferred tool may not share a core tool's name either.
  const checked = convertToOpenAITools([...tools, ...deferred]);
  const converted: ResponsesTool[] = checked.map((tool, index): ResponsesFunctionTool => ({
    type: "function",
    name: tool.function.name,
    description: tool.function.description,
    parameters: tool.function.parameters,
    strict: false,
    ...(index >= tools.length ? { defer_loading: true as const } : {}),
  }));
  if (deferred.length > 0) converted.push({ type: "tool_search" });
  return converted;
}
