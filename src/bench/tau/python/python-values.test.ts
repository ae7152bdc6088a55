import { describe, expect, it } from "vitest";
import { tauDataHash } from "../tau-data-hash.js";
import { dumpPythonJson } from "./dump-python-json.js";
import { evaluatePythonArithmetic } from "./evaluate-python-arithmetic.js";
import { parsePythonJson } from "./parse-python-json.js";
import { PyFloat } from "./py-value.js";
import { formatPythonFloat, roundPythonFloat } from "./python-float.js";
import { pythonHashableRepr, pythonStringRepr } from "./python-repr.js";

// Expected texts were printed by CPython 3.11 (json.dumps, str(to_hashable(x)), round) for the same inputs.
describe("Python json.dumps compatibility", () => {
  it("keeps key order (numeric-looking keys included), ints vs floats, and escapes non-ASCII as \\uXXXX", () => {
    const value = parsePythonJson('{"9": 1, "1": 100.0, "é": "naïve 😀 \\u007f\\n", "f": [1e-05, 1e16, 0.30000000000000004, -0.0, 123456789.125]}');
    expect(dumpPythonJson(value)).toBe(
      '{"9": 1, "1": 100.0, "\\u00e9": "na\\u00efve \\ud83d\\ude00 \\u007f\\n", "f": [1e-05, 1e+16, 0.30000000000000004, -0.0, 123456789.125]}',
    );
  });

  it("prints floats as Python's repr", () => {
    expect([100, 0.1 + 0.2, 1e-5, 0.0001, 1e16, 1e15, -2.5, 5e-324].map(formatPythonFloat)).toEqual([
      "100.0", "0.30000000000000004", "1e-05", "0.0001", "1e+16", "1000000000000000.0", "-2.5", "5e-324",
    ]);
  });

  it("rounds like Python's round(x, 2): the exact binary value, ties to even", () => {
    expect([0.125, 0.375, 2.675, 1.005, -0.125, 0.3333].map((value) => roundPythonFloat(value, 2))).toEqual([0.12, 0.38, 2.67, 1, -0.12, 0.33]);
  });

  it("reads a repeated key at its first position with its last value, as a dict does", () => {
    expect(dumpPythonJson(parsePythonJson('{"a": 1, "b": 2, "a": 3}'))).toBe('{"a": 3, "b": 2}');
  });

  it("rejects what json.loads rejects, with its wording", () => {
    expect(() => parsePythonJson('{"a": 1,}')).toThrow(/Expecting property name enclosed in double quotes/);
    expect(() => parsePythonJson("[1] x")).toThrow(/Extra data/);
  });
});

describe("the reference's data hash", () => {
  it("hashes the repr of sorted tuples exactly as CPython prints it", () => {
    const value = parsePythonJson(`{"b": [1, 2.5, "it's"], "a": {"z": null, "y": true}, "10": [1.0]}`);
    expect(pythonHashableRepr(value)).toBe(`(('10', (1.0,)), ('a', (('y', True), ('z', None))), ('b', (1, 2.5, "it's")))`);
    expect(tauDataHash(value)).toBe("e3a27eae634334ceb2f7a8ae5ebdabde82a50234b387aae200dae627610f4cd6");
  });

  it("quotes strings as repr does", () => {
    expect(pythonStringRepr(`a'b"c`)).toBe(`'a\\'b"c'`);
    expect(pythonStringRepr("tab\there\u00a0é")).toBe("'tab\\there\\xa0é'");
  });
});

describe("calculate's arithmetic", () => {
  const show = (expression: string) => {
    const value = evaluatePythonArithmetic(expression);
    return value instanceof PyFloat ? `float ${value.value}` : `int ${value}`;
  };

  it("keeps ints until a division or a float, with Python's precedence", () => {
    expect(show("2 + 3 * 4")).toBe("int 14");
    expect(show("10 / 4")).toBe("float 2.5");
    expect(show("-2 ** 2")).toBe("int -4");
    expect(show("2 ** -1")).toBe("float 0.5");
    expect(show("7 // 2")).toBe("int 3");
    expect(show("(1.5 + 2) * 2")).toBe("float 7");
  });

  it("raises Python's errors", () => {
    expect(() => evaluatePythonArithmetic("1 / 0")).toThrow("division by zero");
    expect(() => evaluatePythonArithmetic("1 +")).toThrow("invalid syntax (<string>, line 1)");
    expect(() => evaluatePythonArithmetic("(1 + 2")).toThrow("'(' was never closed");
    expect(() => evaluatePythonArithmetic("007")).toThrow(/leading zeros/);
  });
});
