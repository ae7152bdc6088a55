import { parseUntrustedJson } from "./parse-untrusted-json.js";
/**
 * JSON with object keys sorted recursively. Used for values whose key order the caller does not
 * control (tool schemas built in different ways), so the same value always gives the same bytes.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const entry = (value as Record<string, unknown>)[key];
      if (entry !== undefined) sorted[key] = sortKeys(entry);
    }
    return sorted;
  }
  return value;
}

export type SafeParseResult = { success: true; value: unknown } | { success: false; error: string };

/** Parses JSON without throwing (model output and network chunks are untrusted). */
export function safeParseJson(text: string): SafeParseResult {
  try {
    return { success: true, value: parseUntrustedJson(text) };
  } catch (error) {
    return { success: false, error: error instanceof Error ? error.message : String(error) };
  }
}
