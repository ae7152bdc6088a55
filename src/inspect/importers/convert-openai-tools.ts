import type { ToolDefinition } from "../../types/index.js";
import { describeJsonType, isRecord } from "./json-guards.js";

/**
 * Converts OpenAI tool schemas into tool definitions, in the order given (order is part of the
 * prefix). Accepts the Chat Completions shape `{type: "function", function: {...}}` and the flat
 * `{name, description, parameters}` of the Responses API and the legacy `functions` list.
 * Returns a reason naming the bad entry instead of throwing.
 */
export function convertOpenAITools(raw: unknown, path: string): ToolDefinition[] | string {
  if (!Array.isArray(raw)) return `${path}: expected an array of tools, got ${describeJsonType(raw)}`;
  const tools: ToolDefinition[] = [];
  for (const [index, entry] of raw.entries()) {
    const spec = isRecord(entry) && isRecord(entry.function) ? entry.function : entry;
    if (!isRecord(spec) || typeof spec.name !== "string") {
      return `${path}[${index}]: expected {type: "function", function: {name, description, parameters}}`;
    }
    const parameters = spec.parameters ?? {};
    if (!isRecord(parameters)) return `${path}[${index}].parameters: expected a JSON Schema object, got ${describeJsonType(parameters)}`;
    tools.push({
      name: spec.name,
      description: typeof spec.description === "string" ? spec.description : "",
      parameters,
    });
  }
  return tools;
}
