import { type ToolDefinition, ToolDefinitionError } from "../../types/index.js";
import { sortKeys } from "../shared/canonical-json.js";
import type { OpenAIWireTool } from "./openai-wire-types.js";

// OpenAI rejects other names with "string does not match pattern. Expected a string that matches
// the pattern '^[a-zA-Z0-9_-]+$'" (max 64 characters); the other vendors accept this subset too.
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Translates tool definitions into Chat Completions `tools`. Parameters are canonicalised (keys
 * sorted) so a schema built in a different key order gives the same bytes and keeps the prefix.
 * Throws `tool_definition_invalid` for a definition every vendor would reject.
 */
export function convertToOpenAITools(tools: ToolDefinition[]): OpenAIWireTool[] {
  const seen = new Set<string>();
  return tools.map((tool) => {
    if (!toolNamePattern.test(tool.name)) {
      throw new ToolDefinitionError(
        `Tool name '${tool.name}' is not accepted by OpenAI-compatible APIs. ` +
          "Use 1-64 letters, digits, '_' or '-'.",
      );
    }
    if (seen.has(tool.name)) {
      throw new ToolDefinitionError(`Tool '${tool.name}' is defined twice. Give each tool a unique name.`);
    }
    seen.add(tool.name);
    if (tool.parameters === null || typeof tool.parameters !== "object" || Array.isArray(tool.parameters)) {
      throw new ToolDefinitionError(
        `Tool '${tool.name}' has parameters that are not a JSON Schema object. Use { type: "object", properties: {...} }.`,
      );
    }
    return {
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: sortKeys(tool.parameters) },
    };
  });
}
