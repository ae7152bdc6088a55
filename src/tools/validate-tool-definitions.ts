import { CtxkitError, type ToolDefinition } from "../types/index.js";

// OpenAI and Anthropic both restrict tool names to this alphabet and length.
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** Fails fast on tool sets no provider would accept: bad or duplicate names, missing descriptions. */
export function validateToolDefinitions(tools: readonly ToolDefinition[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (!toolNamePattern.test(tool.name)) {
      throw new CtxkitError(
        "tool_definition_invalid",
        `Tool name '${tool.name}' is invalid: use 1-64 letters, digits, '_' or '-'.`,
      );
    }
    if (seen.has(tool.name)) {
      throw new CtxkitError("tool_definition_invalid", `Two tools are named '${tool.name}'; tool names must be unique.`);
    }
    seen.add(tool.name);
    if (typeof tool.description !== "string" || tool.description.trim() === "") {
      throw new CtxkitError(
        "tool_definition_invalid",
        `Tool '${tool.name}' has no description; the model needs one to know when to call it.`,
      );
    }
  }
}
