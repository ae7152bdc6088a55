import type { PyDict, PyValue } from "./py-value.js";
import { pythonTypeName } from "./python-arithmetic.js";
import { PythonError } from "./python-error.js";
import { pythonStringRepr } from "./python-repr.js";

/**
 * Subscripting as Python does it, with Python's exceptions: `dict[key]` raises `KeyError('key')`,
 * whose text τ-bench reports as `Error: 'key'`.
 */
export function item(container: PyValue | undefined, key: string): PyValue {
  if (!(container instanceof Map)) {
    if (typeof container === "string" || Array.isArray(container)) {
      throw new PythonError("TypeError", `${Array.isArray(container) ? "list" : "string"} indices must be integers${Array.isArray(container) ? " or slices, not str" : ", not 'str'"}`);
    }
    throw new PythonError("TypeError", `'${pythonTypeName(container)}' object is not subscriptable`);
  }
  const value = container.get(key);
  if (value === undefined) throw new PythonError("KeyError", pythonStringRepr(key));
  return value;
}

export function dictItem(container: PyValue | undefined, key: string): PyDict {
  const value = item(container, key);
  if (!(value instanceof Map)) throw new PythonError("TypeError", `'${pythonTypeName(value)}' object is not a dict`);
  return value;
}

export function listItem(container: PyValue | undefined, key: string): PyValue[] {
  const value = item(container, key);
  if (!Array.isArray(value)) throw new PythonError("TypeError", `'${pythonTypeName(value)}' object is not iterable`);
  return value;
}

/** `key in container` for a dict. */
export function contains(container: PyValue | undefined, key: PyValue | undefined): boolean {
  if (container instanceof Map) {
    if (typeof key === "string") return container.has(key);
    if (Array.isArray(key) || key instanceof Map) throw new PythonError("TypeError", `unhashable type: '${pythonTypeName(key)}'`);
    return false;
  }
  if (typeof container === "string" && typeof key === "string") return container.includes(key);
  throw new PythonError("TypeError", `argument of type '${pythonTypeName(container)}' is not iterable`);
}

/** Iterating a value Python would iterate (`for x in value`). */
export function iterate(value: PyValue | undefined): PyValue[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Map) return [...value.keys()];
  if (typeof value === "string") return [...value];
  throw new PythonError("TypeError", `'${pythonTypeName(value)}' object is not iterable`);
}

/** `len(value)`. */
export function length(value: PyValue | undefined): number {
  if (Array.isArray(value) || typeof value === "string") return value.length;
  if (value instanceof Map) return value.size;
  throw new PythonError("TypeError", `object of type '${pythonTypeName(value)}' has no len()`);
}

/** `str.lower()` on a value that must be a string. */
export function lower(value: PyValue | undefined): string {
  if (typeof value !== "string") throw new PythonError("AttributeError", `'${pythonTypeName(value)}' object has no attribute 'lower'`);
  return value.toLowerCase();
}
