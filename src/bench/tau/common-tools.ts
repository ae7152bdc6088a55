import { item } from "./python/py-access.js";
import { PyFloat, numericValue } from "./python/py-value.js";
import { evaluatePythonArithmetic } from "./python/evaluate-python-arithmetic.js";
import { formatPythonFloat, roundPythonFloat } from "./python/python-float.js";
import { PythonError } from "./python/python-error.js";
import type { TauToolImplementation } from "./tau-tool-implementation.js";

/** The tools both domains share: `calculate`, `think`, `transfer_to_human_agents`. */
export const calculateTool: TauToolImplementation = {
  name: "calculate",
  className: "Calculate",
  parameters: ["expression"],
  invoke(_data, args) {
    const expression = item(args, "expression");
    if (typeof expression !== "string") throw new PythonError("TypeError", `'${typeof expression}' object is not iterable`);
    if (![...expression].every((character) => "0123456789+-*/(). ".includes(character))) return "Error: invalid characters in expression";
    const value = evaluatePythonArithmetic(expression);
    // str(round(float(value), 2)): always a float, so `2 + 3` prints `5.0`.
    return formatPythonFloat(roundPythonFloat(new PyFloat(numericValue(value)).value, 2));
  },
};

export const thinkTool: TauToolImplementation = {
  name: "think",
  className: "Think",
  parameters: ["thought"],
  invoke: () => "",
};

export const transferToHumanAgentsTool: TauToolImplementation = {
  name: "transfer_to_human_agents",
  className: "TransferToHumanAgents",
  parameters: ["summary"],
  invoke: () => "Transfer successful",
};
