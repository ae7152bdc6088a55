import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import type { Tool, ToolContext, ToolOutput, ToolRisk, ToolSource } from "../types/index.js";

export type { Tool, ToolContext, ToolErrorCode, ToolErrorKind, ToolOutput, ToolRisk, ToolSource } from "../types/index.js";
export { ToolError } from "../types/tool-error.js";

/** A JSON Schema for an object (a tool's parameters); `json-schema-to-ts` reads its literal type. */
export type ObjectSchema = Exclude<JSONSchema, boolean>;

/** The arguments a JSON Schema describes, as a TypeScript type (what `defineTool` infers). */
export type ToolArguments<Schema extends JSONSchema> = FromSchema<Schema>;

/** A tool whose `parameters` is a literal JSON Schema; `execute` gets the arguments it describes. */
export interface SchemaTool<Schema extends ObjectSchema, Args = FromSchema<Schema>> {
  name: string;
  description: string;
  parameters: Schema;
  execute(args: Args, context: ToolContext): Promise<ToolOutput | string>;
  parallelSafe?: boolean;
  timeoutMs?: number;
  requiresConfirmation?: boolean | ((args: Args) => boolean);
  source?: ToolSource;
  risk?: ToolRisk;
  deferred?: boolean;
}

/**
 * Defines a tool. With a literal schema (`parameters: { … } as const`, or written inline) the
 * arguments of `execute` are inferred from it; `defineTool<Args>(…)` sets them explicitly. Either
 * way the loop validates the model's arguments against the schema before `execute` runs.
 */
export function defineTool<const Schema extends ObjectSchema, Args = FromSchema<Schema>>(tool: SchemaTool<Schema, Args>): Tool<Args>;
export function defineTool<Args = Record<string, unknown>>(tool: Tool<Args>): Tool<Args>;
export function defineTool(tool: Tool<unknown>): Tool<unknown> {
  return tool;
}
