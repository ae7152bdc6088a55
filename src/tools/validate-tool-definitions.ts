import { type ToolDefinition, ToolDefinitionError } from "../types/index.js";

// OpenAI and Anthropic both restrict tool names to this alphabet and length.
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** Fails fast on tool sets no provider would accept: bad or duplicate names, missing descriptions. */
export function validateToolDefinitions(tools: readonly ToolDefinition[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (!toolNamePattern.test(tool.name)) {
      throw new ToolDefinitionError(
        `Tool name '${tool.name}' is invalid: use 1-64 letters, digits, '_' or '-'.`,
      );
    }
    if (seen.has(tool.name)) {
      throw new ToolDefinitionError(`Two tools are named '${tool.name}'; tool names must be unique.`);
    }
    seen.add(tool.name);
    if (typeof tool.description !== "string" || tool.description.trim() === "") {
      throw new ToolDefinitionError(
        `Tool '${tool.name}' has no description; the model needs one to know when to call it.`,
      );
    }
  }
}
