/**
 * Values as Python's `json.loads` gives them. Python tells `100` (int) from `100.0` (float) and prints
 * them differently, and its dicts keep insertion order for every key — JavaScript numbers and objects
 * do neither (integer-like keys such as τ-bench's product ids jump to the front). So ints are JS
 * numbers, floats are `PyFloat`, dicts are `Map`s.
 */
export type PyValue = null | boolean | number | PyFloat | string | PyValue[] | PyDict;
export type PyDict = Map<string, PyValue>;
export type PyNumber = number | PyFloat;

/** A Python float. Immutable, so copies of the data may share instances. */
export class PyFloat {
  constructor(readonly value: number) {}
}

export function isPyDict(value: PyValue | undefined): value is PyDict {
  return value instanceof Map;
}

export function isPyNumber(value: PyValue | undefined): value is PyNumber {
  return (typeof value === "number" || value instanceof PyFloat);
}

/** The numeric value of an int, float or bool (Python treats True as 1). */
export function numericValue(value: PyNumber | boolean): number {
  if (typeof value === "boolean") return value ? 1 : 0;
  return value instanceof PyFloat ? value.value : value;
}

/** A deep copy: dicts and lists are copied, scalars (PyFloat included) are shared. */
export function deepCopy<T extends PyValue>(value: T): T {
  if (Array.isArray(value)) return value.map((element) => deepCopy(element)) as T;
  if (value instanceof Map) {
    const copy: PyDict = new Map();
    for (const [key, entry] of value as PyDict) copy.set(key, deepCopy(entry));
    return copy as T;
  }
  return value;
}

/** Python equality for JSON-shaped values (`1 == 1.0`, `True == 1`, dicts equal regardless of order). */
export function pyEquals(left: PyValue, right: PyValue): boolean {
  if (isScalarNumber(left) && isScalarNumber(right)) return numericValue(left) === numericValue(right);
  if (Array.isArray(left)) return Array.isArray(right) && left.length === right.length && left.every((item, index) => pyEquals(item, right[index] ?? null));
  if (left instanceof Map) {
    if (!(right instanceof Map) || left.size !== right.size) return false;
    for (const [key, entry] of left) if (!right.has(key) || !pyEquals(entry, right.get(key) ?? null)) return false;
    return true;
  }
  return left === right;
}

function isScalarNumber(value: PyValue): value is PyNumber | boolean {
  return typeof value === "number" || typeof value === "boolean" || value instanceof PyFloat;
}

/** Converts a plain JavaScript value (numbers with a fraction become floats) to a Python value. */
export function fromJavaScript(value: unknown): PyValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isInteger(value) ? value : new PyFloat(value);
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(fromJavaScript);
  if (value instanceof Map) return value as PyDict;
  if (typeof value === "object") return new Map(Object.entries(value).map(([key, entry]) => [key, fromJavaScript(entry)]));
  return String(value);
}

/** A plain JavaScript value (floats become numbers, dicts objects) for writing with JSON.stringify. */
export function toJavaScript(value: PyValue): unknown {
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return value.map(toJavaScript);
  if (value instanceof Map) {
    const object: Record<string, unknown> = {};
    for (const [key, entry] of value) object[key] = toJavaScript(entry);
    return object;
  }
  return value;
}
