/**
 * Tiny shape checks for records read from disk. Each returns `undefined` when the value fits, or a
 * reason naming the field (`message.content[1].signature: expected a string, got number`), so
 * checks chain with `??` and the first problem wins.
 */
export type ShapeProblem = string | undefined;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function describeJsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

export function expectObject(value: unknown, path: string): ShapeProblem {
  return isPlainObject(value) ? undefined : `${path}: expected an object, got ${describeJsonType(value)}`;
}

export function expectString(value: unknown, path: string): ShapeProblem {
  return typeof value === "string" ? undefined : `${path}: expected a string, got ${describeJsonType(value)}`;
}

export function expectOptionalString(value: unknown, path: string): ShapeProblem {
  return value === undefined ? undefined : expectString(value, path);
}

export function expectBoolean(value: unknown, path: string): ShapeProblem {
  return typeof value === "boolean" ? undefined : `${path}: expected a boolean, got ${describeJsonType(value)}`;
}

export function expectCount(value: unknown, path: string): ShapeProblem {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0
    ? undefined
    : `${path}: expected a non-negative integer, got ${JSON.stringify(value) ?? describeJsonType(value)}`;
}

export function expectNonNegativeNumber(value: unknown, path: string): ShapeProblem {
  return typeof value === "number" && Number.isFinite(value) && value >= 0
    ? undefined
    : `${path}: expected a non-negative number, got ${JSON.stringify(value) ?? describeJsonType(value)}`;
}

export function expectOneOf(value: unknown, allowed: readonly string[], path: string): ShapeProblem {
  return typeof value === "string" && allowed.includes(value)
    ? undefined
    : `${path}: expected one of ${allowed.map((entry) => JSON.stringify(entry)).join(", ")}, got ${JSON.stringify(value) ?? describeJsonType(value)}`;
}

/** Checks every element with `check`, reporting the first bad one by index. */
export function expectArrayOf(
  value: unknown,
  path: string,
  check: (element: unknown, elementPath: string) => ShapeProblem,
): ShapeProblem {
  if (!Array.isArray(value)) return `${path}: expected an array, got ${describeJsonType(value)}`;
  for (const [index, element] of value.entries()) {
    const problem = check(element, `${path}[${index}]`);
    if (problem) return problem;
  }
  return undefined;
}
