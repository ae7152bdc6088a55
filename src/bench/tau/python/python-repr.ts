import { CopyOnReadTable } from "./copy-on-read-table.js";
import { PyFloat, type PyValue } from "./py-value.js";
import { formatPythonFloat } from "./python-float.js";

/**
 * A value as Python's `repr` prints it after τ-bench's `to_hashable` turned it into tuples: a dict
 * becomes a tuple of `(key, value)` pairs sorted by key, a list a tuple. The reference hashes this
 * text (`sha256(str(to_hashable(data)))`), so it must match Python byte for byte.
 */
export function pythonHashableRepr(value: PyValue): string {
  const pieces: string[] = [];
  writePythonHashableRepr(value, (piece) => pieces.push(piece));
  return pieces.join("");
}

/**
 * The same text in pieces, so a hash can take it without one multi-megabyte string being built:
 * the data's tables are written record by record, reusing the cached text of untouched records.
 */
export function writePythonHashableRepr(value: PyValue, write: (piece: string) => void): void {
  if (!(value instanceof Map)) return write(scalarOrListRepr(value));
  const keys = sortByCodePoint([...value.keys()]);
  write("(");
  keys.forEach((key, index) => {
    if (index > 0) write(", ");
    if (value instanceof CopyOnReadTable) return write(tableEntryRepr(value, key));
    write(`(${pythonStringRepr(key)}, `);
    writePythonHashableRepr(value.get(key) ?? null, write);
    write(")");
  });
  write(keys.length === 1 ? ",)" : ")");
}

function scalarOrListRepr(value: Exclude<PyValue, Map<string, PyValue>>): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : formatPythonFloat(value);
  if (value instanceof PyFloat) return formatPythonFloat(value.value);
  if (typeof value === "string") return pythonStringRepr(value);
  return tupleRepr(value.map(pythonHashableRepr));
}

/** A record of a table: untouched records reuse the text cached for the pristine record. */
function tableEntryRepr(table: CopyOnReadTable, key: string): string {
  const record = table.peek(key) ?? null;
  if (table.isTouched(key)) return `(${pythonStringRepr(key)}, ${pythonHashableRepr(record)})`;
  let text = table.origin.reprCache.get(key);
  if (text === undefined) {
    text = `(${pythonStringRepr(key)}, ${pythonHashableRepr(record)})`;
    table.origin.reprCache.set(key, text);
  }
  return text;
}

function tupleRepr(items: string[]): string {
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
}

const surrogate = /[\uD800-\uDFFF]/;

/** Python sorts strings by code point; JavaScript's default sort by UTF-16 unit, which agrees unless a surrogate is involved. */
function sortByCodePoint(keys: string[]): string[] {
  if (!keys.some((key) => surrogate.test(key))) return keys.sort();
  const points = (key: string) => Array.from(key, (character) => character.codePointAt(0) ?? 0);
  return keys.sort((left, right) => {
    const leftPoints = points(left);
    const rightPoints = points(right);
    for (let index = 0; index < Math.min(leftPoints.length, rightPoints.length); index++) {
      const difference = (leftPoints[index] ?? 0) - (rightPoints[index] ?? 0);
      if (difference !== 0) return difference;
    }
    return leftPoints.length - rightPoints.length;
  });
}

const notPrintable = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const needsEscaping = /[^ -&(-[\]-~]/;

/** Python's `repr(str)`: single quotes unless the text has one and no double quote. */
export function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  if (!needsEscaping.test(text)) return `${quote}${text}${quote}`;
  let body = "";
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if (character === quote || character === "\\") body += `\\${character}`;
    else if (character === "\t") body += "\\t";
    else if (character === "\n") body += "\\n";
    else if (character === "\r") body += "\\r";
    else if (code < 0x20 || code === 0x7f) body += `\\x${hex(code, 2)}`;
    else if (code < 0x7f || character === " " || !notPrintable.test(character)) body += character;
    else if (code <= 0xff) body += `\\x${hex(code, 2)}`;
    else if (code <= 0xffff) body += `\\u${hex(code, 4)}`;
    else body += `\\U${hex(code, 8)}`;
  }
  return `${quote}${body}${quote}`;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, "0");
}
