import type { ToolDefinition } from "../types/tool.js";
import type { HfTool } from "./hf-chat-message.js";

/**
 * Tool definitions as a chat template receives them. Parameter keys are sorted, as ctxkit's
 * OpenAI-compatible provider sends them, so a template rendered here matches what vLLM renders from
 * the wire body (Python keeps JSON key order; the template prints it with `tojson`).
 */
export function toHfTools(tools: readonly ToolDefinition[]): HfTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: sortKeysDeep(tool.parameters) as Record<string, unknown>,
    },
  }));
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const entry = (value as Record<string, unknown>)[key];
    if (entry !== undefined) sorted[key] = sortKeysDeep(entry);
  }
  return sorted;
}
