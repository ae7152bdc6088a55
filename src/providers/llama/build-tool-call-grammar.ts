import { CtxkitError } from "../../types/errors.js";
import type { ToolDefinition } from "../../types/tool.js";

/** Where the grammar starts: at the first output token, or just after a generated `<tool_call>`. */
export type ToolCallGrammarStart = "response" | "after_open_tag";

/**
 * The JSON schema of one Qwen3 tool call object, `{"name": …, "arguments": …}`, for each active tool.
 * node-llama-cpp's JSON-schema grammar makes every listed property required, so only a tool's
 * required parameters are listed: the arguments are then always valid for the schema, at the price
 * that the model cannot pass optional ones under the grammar.
 */
export function toToolCallSchema(tools: readonly ToolDefinition[], activeNames: ReadonlySet<string>): Record<string, unknown> {
  const active = tools.filter((tool) => activeNames.has(tool.name));
  if (active.length === 0) throw new CtxkitError("option_invalid", "No active tool is defined in the request. Pass activeTools names that are in the request's tools.");
  return { oneOf: active.map((tool) => ({ type: "object", properties: { name: { const: tool.name }, arguments: requiredOnly(tool.parameters) } })) };
}

/**
 * A GBNF grammar for Qwen3's tool-call syntax around node-llama-cpp's grammar for the call JSON
 * (`callJsonGrammar`, whose `root` rule matches one call object followed by trailing newlines that
 * node-llama-cpp adds to stop generation; that tail is replaced here by the closing tag).
 */
export function buildToolCallGrammar(callJsonGrammar: string, start: ToolCallGrammarStart, maxCalls: number): string {
  const lines = callJsonGrammar.split("\n");
  const rootIndex = lines.findIndex((line) => line.startsWith("root ::= "));
  const root = rootIndex >= 0 ? lines[rootIndex]! : undefined;
  const trailing = ' "\\n\\n\\n\\n" [\\n]*';
  if (root === undefined || !root.endsWith(trailing)) {
    throw new CtxkitError("engine_unavailable", `node-llama-cpp produced a JSON grammar of an unexpected shape. Install the supported version: npm install -E node-llama-cpp@3.21.1`);
  }
  lines[rootIndex] = `call-json ::= ${root.slice("root ::= ".length, root.length - trailing.length)}`;
  const call = '"\\n" call-json "\\n</tool_call>"';
  const more = maxCalls > 1 ? ` ( "\\n<tool_call>" ${call} ){0,${maxCalls - 1}}` : "";
  const first = start === "response" ? `"<tool_call>" ${call}` : call;
  return [`root ::= ${first}${more}`, ...lines].join("\n");
}

function requiredOnly(parameters: Record<string, unknown>): Record<string, unknown> {
  const properties = isRecord(parameters.properties) ? parameters.properties : {};
  const required = Array.isArray(parameters.required) ? parameters.required.filter((name): name is string => typeof name === "string") : [];
  const kept: Record<string, unknown> = {};
  for (const name of required) if (name in properties) kept[name] = toGrammarSchema(properties[name]);
  return { type: "object", properties: kept };
}

/** Keeps the keywords node-llama-cpp's grammar understands; a property it cannot express becomes any JSON value. */
function toGrammarSchema(schema: unknown): unknown {
  if (!isRecord(schema)) return {};
  if (Array.isArray(schema.enum)) return { enum: schema.enum };
  if ("const" in schema) return { const: schema.const };
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) return { oneOf: ((schema.oneOf ?? schema.anyOf) as unknown[]).map(toGrammarSchema) };
  switch (schema.type) {
    case "string":
    case "number":
    case "integer":
    case "boolean":
    case "null":
      return { type: schema.type };
    case "array":
      return { type: "array", items: toGrammarSchema(schema.items) };
    case "object":
      return requiredOnly(schema);
    default:
      return {};
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
