import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { type ToolDefinition, ToolDefinitionError } from "../types/index.js";

export type ArgumentsValidator = (args: unknown) => { valid: true } | { valid: false; problems: string[] };

/**
 * Compiles each tool's JSON Schema once, when the agent is created, so a broken schema fails fast
 * (before any model call) instead of surfacing as a confusing provider 400 mid-run.
 */
export function compileArgumentValidators(tools: readonly ToolDefinition[]): Map<string, ArgumentsValidator> {
  // logger: false — Ajv otherwise prints "unknown format … ignored" to the console for schemas from
// MCP servers (`format: "uri"`), and library code never prints.
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
  const validators = new Map<string, ArgumentsValidator>();
  for (const tool of tools) {
    if (tool.parameters.type !== "object") {
      throw new ToolDefinitionError(
        `Tool '${tool.name}' has parameters of type '${String(tool.parameters.type)}'; providers require ` +
          `an object schema. Wrap the parameters in { "type": "object", "properties": { … } }.`,
      );
    }
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(tool.parameters);
    } catch (error) {
      throw new ToolDefinitionError(
        `Tool '${tool.name}' has an invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}. ` +
          "Fix the schema in the tool's `parameters`.",
        { cause: error },
      );
    }
    validators.set(tool.name, (args) =>
      validate(args) ? { valid: true } : { valid: false, problems: (validate.errors ?? []).map(describeProblem) },
    );
  }
  return validators;
}

function describeProblem(error: ErrorObject): string {
  const where = error.instancePath === "" ? "arguments" : `argument '${error.instancePath.slice(1).replaceAll("/", ".")}'`;
  if (error.keyword === "required") return `missing required argument '${String(error.params.missingProperty)}'`;
  if (error.keyword === "additionalProperties") return `unknown argument '${String(error.params.additionalProperty)}'`;
  if (error.keyword === "enum") return `${where} must be one of ${JSON.stringify(error.params.allowedValues)}`;
  return `${where} ${error.message ?? "is invalid"}`;
}
