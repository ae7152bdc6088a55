import { CtxkitError } from "../../types/index.js";
import { parsePythonJson } from "./python/parse-python-json.js";
import type { PyDict, PyValue } from "./python/py-value.js";

export interface TauAction {
  name: string;
  /** Kept as Python values, so `100.0` in a task stays a float. */
  kwargs: PyDict;
}

/** A τ-bench task: who the simulated user is, what they want, and the gold solution. */
export interface TauTask {
  userId: string;
  instruction: string;
  actions: TauAction[];
  /** Strings the agent must say to the user (checked case-insensitively, commas ignored). */
  outputs: string[];
}

/** Reads a tasks file in the corpus format `[{user_id, instruction, actions: [{name, kwargs}], outputs}]`. */
export function parseTauTasks(text: string, file: string): TauTask[] {
  const value = parsePythonJson(text);
  if (!Array.isArray(value)) throw invalid(file, "the file is not a JSON list of tasks");
  return value.map((entry, index) => parseTauTask(entry, `${file}[${index}]`));
}

export function parseTauTask(entry: PyValue, where: string): TauTask {
  if (!(entry instanceof Map)) throw invalid(where, "a task must be an object");
  const actions = entry.get("actions") ?? [];
  const outputs = entry.get("outputs") ?? [];
  if (!Array.isArray(actions) || !Array.isArray(outputs)) throw invalid(where, "actions and outputs must be lists");
  return {
    userId: String(entry.get("user_id") ?? ""),
    instruction: String(entry.get("instruction") ?? ""),
    actions: actions.map((action, index) => {
      const name = action instanceof Map ? action.get("name") : undefined;
      const kwargs = action instanceof Map ? (action.get("kwargs") ?? new Map()) : undefined;
      if (typeof name !== "string" || !(kwargs instanceof Map)) throw invalid(`${where}.actions[${index}]`, "an action needs a name and a kwargs object");
      return { name, kwargs };
    }),
    outputs: outputs.map(String),
  };
}

function invalid(where: string, problem: string): CtxkitError {
  return new CtxkitError("option_invalid", `${where}: ${problem}. Expected τ-bench tasks: [{user_id, instruction, actions: [{name, kwargs}], outputs}].`);
}
