import type { ToolDefinition } from "../../types/index.js";
import { sortKeys } from "../shared/canonical-json.js";
import type { AnthropicTool } from "./anthropic-wire-types.js";

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
