import { createLazyRequire } from "../types/lazy-require.js";
import type { Ajv as AjvInstance, ErrorObject, ValidateFunction } from "ajv";
import { type ToolDefinition, ToolDefinitionError } from "../types/index.js";

export type ArgumentsValidator = (args: unknown) => { valid: true } | { valid: false; problems: string[] };

export interface CompileValidatorsOptions {
  /**
   * Compile every schema now (default): a broken schema fails here, before any model call. With
   * `false`, each tool's schema is compiled on its first call, and ajv (~0.3 s to load) is loaded then:
   * an agent's start does not pay for tools the model never calls. The shape check (an object schema)
   * runs now either way.
   */
  eager?: boolean;
}

const requireFromHere = createLazyRequire(import.meta.url);
let sharedAjv: AjvInstance | undefined;

// No logger: the library never prints (ajv warns on console about formats it does not check, e.g. "uri" in MCP schemas).
function loadAjv(): AjvInstance {
  if (sharedAjv === undefined) {
    const { Ajv } = requireFromHere("ajv") as typeof import("ajv");
    sharedAjv = new Ajv({ allErrors: true, strict: false, logger: false });
  }
  return sharedAjv;
}

/**
 * One validator per tool. Eager (the default) compiles each tool's JSON Schema now, so a broken schema
 * fails fast instead of surfacing as a confusing provider 400 mid-run; lazy compiles on the first call,
 * and a schema that does not compile then throws the same ToolDefinitionError from the validator.
 */
export function compileArgumentValidators(tools: readonly ToolDefinition[], options: CompileValidatorsOptions = {}): Map<string, ArgumentsValidator> {
  const validators = new Map<string, ArgumentsValidator>();
  for (const tool of tools) {
    if (tool.parameters.type !== "object") {
      throw new ToolDefinitionError(
        `Tool '${tool.name}' has parameters of type '${String(tool.parameters.type)}'; providers require ` +
          `an object schema. Wrap the parameters in { "type": "object", "properties": { … } }.`,
      );
    }
    let validate: ValidateFunction | undefined = options.eager === false ? undefined : compileSchema(tool);
    validators.set(tool.name, (args) => {
      validate ??= compileSchema(tool);
      return validate(args) ? { valid: true } : { valid: false, problems: (validate.errors ?? []).map(describeProblem) };
    });
  }
  return validators;
}

function compileSchema(tool: ToolDefinition): ValidateFunction {
  const ajv = loadAjv();
  try {
    return ajv.compile(tool.parameters);
  } catch (error) {
    throw new ToolDefinitionError(
      `Tool '${tool.name}' has an invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}. ` +
        "Fix the schema in the tool's `parameters`.",
      { cause: error },
    );
  } finally {
    // The instance is shared, each schema stays its tool's own: two tools (or two agents) may use the same $id.
    ajv.removeSchema(tool.parameters);
  }
}

function describeProblem(error: ErrorObject): string {
  const where = error.instancePath === "" ? "arguments" : `argument '${error.instancePath.slice(1).replaceAll("/", ".")}'`;
  if (error.keyword === "required") return `missing required argument '${String(error.params.missingProperty)}'`;
  if (error.keyword === "additionalProperties") return `unknown argument '${String(error.params.additionalProperty)}'`;
  if (error.keyword === "enum") return `${where} must be one of ${JSON.stringify(error.params.allowedValues)}`;
  return `${where} ${error.message ?? "is invalid"}`;
}
