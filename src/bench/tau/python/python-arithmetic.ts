import { PyFloat, isPyNumber, numericValue, type PyNumber, type PyValue } from "./py-value.js";
import { formatPythonFloat, roundPythonFloat } from "./python-float.js";
import { PythonError } from "./python-error.js";

/**
 * Python's arithmetic on ints and floats: an int stays an int until a float joins in, which is what
 * decides whether a result prints as `100` or `100.0`.
 */
export function add(left: PyNumber | boolean, right: PyNumber | boolean): PyNumber {
  return combine(left, right, numericValue(left) + numericValue(right));
}

export function subtract(left: PyNumber | boolean, right: PyNumber | boolean): PyNumber {
  return combine(left, right, numericValue(left) - numericValue(right));
}

export function multiply(left: PyNumber | boolean, right: PyNumber | boolean): PyNumber {
  return combine(left, right, numericValue(left) * numericValue(right));
}

export function negate(value: PyNumber | boolean): PyNumber {
  return value instanceof PyFloat ? new PyFloat(-value.value) : -numericValue(value);
}

export function absolute(value: PyNumber): PyNumber {
  return value instanceof PyFloat ? new PyFloat(Math.abs(value.value)) : Math.abs(value);
}

/** Python's `sum(values)`: starts from the int 0. */
export function sum(values: Iterable<PyNumber>): PyNumber {
  let total: PyNumber = 0;
  for (const value of values) total = add(total, value);
  return total;
}

/** Python's `max(a, b)`: the first of the largest. */
export function maximum(left: PyNumber, right: PyNumber): PyNumber {
  return numericValue(right) > numericValue(left) ? right : left;
}

/** Python's `round(x, ndigits)`: ints come back unchanged, floats rounded half to even. */
export function round(value: PyNumber, ndigits: number): PyNumber {
  return value instanceof PyFloat ? new PyFloat(roundPythonFloat(value.value, ndigits)) : value;
}

/** `str(number)` as an f-string prints it. */
export function formatNumber(value: PyNumber | boolean): string {
  if (typeof value === "boolean") return value ? "True" : "False";
  return value instanceof PyFloat ? formatPythonFloat(value.value) : String(value);
}

/** A number argument, or the TypeError Python raises when arithmetic meets another type. */
export function requireNumber(value: PyValue | undefined, operation: string): PyNumber | boolean {
  if (isPyNumber(value) || typeof value === "boolean") return value;
  throw new PythonError("TypeError", `unsupported operand type(s) for ${operation}: 'int' and '${pythonTypeName(value)}'`);
}

export function lessThan(left: PyValue | undefined, right: PyValue | undefined): boolean {
  const leftNumber = isPyNumber(left) || typeof left === "boolean";
  const rightNumber = isPyNumber(right) || typeof right === "boolean";
  if (leftNumber && rightNumber) return numericValue(left) < numericValue(right);
  if (typeof left === "string" && typeof right === "string") return left < right;
  throw new PythonError("TypeError", `'<' not supported between instances of '${pythonTypeName(left)}' and '${pythonTypeName(right)}'`);
}

export function pythonTypeName(value: PyValue | undefined): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return "int";
  if (value instanceof PyFloat) return "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  return "dict";
}

function combine(left: PyNumber | boolean, right: PyNumber | boolean, result: number): PyNumber {
  return left instanceof PyFloat || right instanceof PyFloat ? new PyFloat(result) : result;
}
