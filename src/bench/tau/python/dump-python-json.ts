import { readEntries } from "./copy-on-read-table.js";
import { PyFloat, type PyValue } from "./py-value.js";
import { formatPythonFloat } from "./python-float.js";

/**
 * Python's `json.dumps(value)` with its defaults: `", "` and `": "` separators, every character
 * outside printable ASCII escaped as `\uXXXX` (ensure_ascii), floats as `repr` prints them
 * (`100.0`, `1e-05`), `NaN` / `Infinity` as Python writes them.
 */
export function dumpPythonJson(value: PyValue): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : formatNonFinite(value);
  if (value instanceof PyFloat) return Number.isFinite(value.value) ? formatPythonFloat(value.value) : formatNonFinite(value.value);
  if (typeof value === "string") return quotePythonJsonString(value);
  if (Array.isArray(value)) return `[${value.map(dumpPythonJson).join(", ")}]`;
  const entries: string[] = [];
  for (const [key, entry] of readEntries(value)) entries.push(`${quotePythonJsonString(key)}: ${dumpPythonJson(entry)}`);
  return `{${entries.join(", ")}}`;
}

function formatNonFinite(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  return value > 0 ? "Infinity" : "-Infinity";
}

const escapedCharacters = /[\\"]|[^ -~]/g;
const namedEscapes: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** A JSON string literal with ensure_ascii escaping (UTF-16 code units, so astral characters become surrogate pairs, as Python writes them). */
export function quotePythonJsonString(text: string): string {
  return `"${text.replace(escapedCharacters, (character) => namedEscapes[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}
