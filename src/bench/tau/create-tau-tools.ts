import { defineTool, type Tool } from "../../tools/tool.js";
import type { ToolDefinition } from "../../types/index.js";
import { invokeTauTool } from "./invoke-tau-tool.js";
import { parsePythonJson } from "./python/parse-python-json.js";
import { fromJavaScript, type PyDict } from "./python/py-value.js";
import { PythonError } from "./python/python-error.js";
import type { TauDomain } from "./tau-domain.js";

export interface TauToolCall {
  name: string;
  kwargs: PyDict;
  output: string;
}

export interface CreateTauToolsOptions {
  /** Changes what the model is shown of a tool (an experiment arm); the behaviour stays the reference's. */
  describe?: (definition: ToolDefinition) => ToolDefinition;
  /** Told about every executed call, in order (the environment's action log). */
  onCall?: (call: TauToolCall) => void;
}

/**
 * The domain's tools as ordinary ctxkit tools over one task's data. Each runs the reference's
 * semantics on the arguments as the model wrote them (Python-parsed, so `100.0` stays a float)
 * and returns the reference's observation text; `Error: …` observations are flagged as errors.
 */
export function createTauTools(domain: TauDomain, data: PyDict, options: CreateTauToolsOptions = {}): Tool[] {
  return [...domain.definitions.values()].map((definition) => {
    const shown = options.describe ? options.describe(definition) : definition;
    return defineTool({
      ...shown,
      parallelSafe: false,
      async execute(args, context) {
        const kwargs = readArguments(context.argumentsText, args);
        const output = kwargs instanceof PythonError ? `Error: ${kwargs.message}` : invokeTauTool(domain.tools, data, definition.name, kwargs);
        options.onCall?.({ name: definition.name, kwargs: kwargs instanceof PythonError ? new Map() : kwargs, output });
        return { content: output, ...(output.startsWith("Error: ") ? { isError: true } : {}) };
      },
    });
  });
}

function readArguments(argumentsText: string | undefined, parsed: unknown): PyDict | PythonError {
  try {
    const value = argumentsText === undefined || argumentsText.trim() === "" ? fromJavaScript(parsed ?? {}) : parsePythonJson(argumentsText);
    return value instanceof Map ? value : new PythonError("TypeError", "argument after ** must be a mapping");
  } catch (error) {
    if (error instanceof PythonError) return error;
    throw error;
  }
}
