import { PyFloat, type PyDict, type PyValue } from "./py-value.js";
import { PythonError } from "./python-error.js";

/**
 * JSON read the way Python's `json.loads` reads it: number literals with a fraction or exponent are
 * floats (`PyFloat`), others ints; objects are `Map`s in document order (a repeated key keeps its
 * first position and its last value, as a dict does); `NaN` and `Infinity` are accepted.
 * Errors are `PythonError`s worded like Python's `json.decoder.JSONDecodeError`.
 */
export function parsePythonJson(text: string): PyValue {
  const parser = new Parser(text);
  parser.skipWhitespace();
  const value = parser.parseValue();
  parser.skipWhitespace();
  if (parser.position < text.length) throw parser.error("Extra data");
  return value;
}

const numberPattern = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;

class Parser {
  position = 0;
  constructor(private readonly text: string) {}

  skipWhitespace(): void {
    const text = this.text;
    let position = this.position;
    while (position < text.length) {
      const code = text.charCodeAt(position);
      if (code !== 32 && code !== 10 && code !== 13 && code !== 9) break;
      position++;
    }
    this.position = position;
  }

  parseValue(): PyValue {
    const code = this.text.charCodeAt(this.position);
    if (code === 123) return this.parseObject();
    if (code === 91) return this.parseArray();
    if (code === 34) return this.parseString();
    if (this.text.startsWith("true", this.position)) return this.literal(4, true);
    if (this.text.startsWith("false", this.position)) return this.literal(5, false);
    if (this.text.startsWith("null", this.position)) return this.literal(4, null);
    if (this.text.startsWith("NaN", this.position)) return this.literal(3, new PyFloat(NaN));
    if (this.text.startsWith("Infinity", this.position)) return this.literal(8, new PyFloat(Infinity));
    if (this.text.startsWith("-Infinity", this.position)) return this.literal(9, new PyFloat(-Infinity));
    return this.parseNumber();
  }

  private literal(length: number, value: PyValue): PyValue {
    this.position += length;
    return value;
  }

  private parseNumber(): PyValue {
    numberPattern.lastIndex = this.position;
    const match = numberPattern.exec(this.text);
    if (!match) throw this.error("Expecting value");
    this.position += match[0].length;
    const isFloat = match[1] !== undefined || match[2] !== undefined;
    return isFloat ? new PyFloat(Number(match[0])) : Number(match[0]);
  }

  private parseObject(): PyDict {
    const object: PyDict = new Map();
    this.position++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.position) === 125) {
      this.position++;
      return object;
    }
    for (;;) {
      if (this.text.charCodeAt(this.position) !== 34) throw this.error("Expecting property name enclosed in double quotes");
      const key = this.parseString();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.position) !== 58) throw this.error("Expecting ':' delimiter");
      this.position++;
      this.skipWhitespace();
      object.set(key, this.parseValue());
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.position);
      this.position++;
      if (next === 125) return object;
      if (next !== 44) throw this.error("Expecting ',' delimiter", -1);
      this.skipWhitespace();
    }
  }

  private parseArray(): PyValue[] {
    const array: PyValue[] = [];
    this.position++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.position) === 93) {
      this.position++;
      return array;
    }
    for (;;) {
      array.push(this.parseValue());
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.position);
      this.position++;
      if (next === 93) return array;
      if (next !== 44) throw this.error("Expecting ',' delimiter", -1);
      this.skipWhitespace();
    }
  }

  private parseString(): string {
    const text = this.text;
    const start = this.position + 1;
    let position = start;
    // Fast path: no escapes before the closing quote.
    for (;;) {
      const code = text.charCodeAt(position);
      if (Number.isNaN(code)) throw this.error("Unterminated string starting at", start - 1 - this.position);
      if (code === 34) {
        this.position = position + 1;
        return text.slice(start, position);
      }
      if (code === 92) break;
      if (code < 32) throw this.error("Invalid control character at", position - this.position);
      position++;
    }
    let result = text.slice(start, position);
    for (;;) {
      const code = text.charCodeAt(position);
      if (Number.isNaN(code)) throw this.error("Unterminated string starting at", start - 1 - this.position);
      if (code === 34) {
        this.position = position + 1;
        return result;
      }
      if (code < 32) throw this.error("Invalid control character at", position - this.position);
      if (code !== 92) {
        result += text[position];
        position++;
        continue;
      }
      const escape = text[position + 1];
      const simple = escape === undefined ? undefined : simpleEscapes[escape];
      if (simple !== undefined) {
        result += simple;
        position += 2;
      } else if (escape === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(position + 2, position + 6))) {
        result += String.fromCharCode(parseInt(text.slice(position + 2, position + 6), 16));
        position += 6;
      } else {
        throw this.error("Invalid \\escape", position - this.position);
      }
    }
  }

  error(message: string, offset = 0): PythonError {
    const at = this.position + offset;
    const before = this.text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - before.lastIndexOf("\n");
    return new PythonError("JSONDecodeError", `${message}: line ${line} column ${column} (char ${at})`);
  }
}

const simpleEscapes: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
