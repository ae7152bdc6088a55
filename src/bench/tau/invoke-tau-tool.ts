import type { PyDict } from "./python/py-value.js";
import { PythonError } from "./python/python-error.js";
import type { TauToolImplementation } from "./tau-tool-implementation.js";

/**
 * Runs one action the way τ-bench's `Env.step` does: an unknown name gives `Unknown action <name>`,
 * any exception the reference would raise gives `Error: <str(exception)>` — including Python's own
 * wording for missing or unexpected keyword arguments.
 */
export function invokeTauTool(tools: ReadonlyMap<string, TauToolImplementation>, data: PyDict, name: string, args: PyDict): string {
  const tool = tools.get(name);
  if (!tool) return `Unknown action ${name}`;
  try {
    checkArguments(tool, args);
    return tool.invoke(data, args);
  } catch (error) {
    if (error instanceof PythonError) return `Error: ${error.message}`;
    throw error;
  }
}

function checkArguments(tool: TauToolImplementation, args: PyDict): void {
  const prefix = `${tool.className}.invoke()`;
  for (const key of args.keys()) {
    if (key === "data") throw new PythonError("TypeError", `${prefix} got multiple values for argument 'data'`);
    if (!tool.parameters.includes(key)) throw new PythonError("TypeError", `${prefix} got an unexpected keyword argument '${key}'`);
  }
  const missing = tool.parameters.filter((parameter) => !args.has(parameter));
  if (missing.length === 0) return;
  const quoted = missing.map((name) => `'${name}'`);
  const list = quoted.length === 1 ? quoted[0] : quoted.length === 2 ? `${quoted[0]} and ${quoted[1]}` : `${quoted.slice(0, -1).join(", ")}, and ${quoted.at(-1)}`;
  const noun = missing.length === 1 ? "argument" : "arguments";
  throw new PythonError("TypeError", `${prefix} missing ${missing.length} required positional ${noun}: ${list}`);
}
