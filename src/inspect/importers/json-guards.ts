import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";

/**
 * Small guards for reading untrusted transcript JSON. Importers check only the fields they use and
 * treat everything else as opaque, so a vendor adding a field never breaks an import.
 */
export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function describeJsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A non-negative finite number, or undefined (missing, null or malformed counts are "unknown"). */
export function optionalCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Parses tool-call arguments the way the internal model wants them: undefined when not JSON. */
export function parseArguments(text: string): unknown {
  try {
    return parseUntrustedJson(text);
  } catch {
    return undefined;
  }
}

/** Drops undefined fields so reported usage and metadata stay minimal and JSON-equal to fixtures. */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
