import { describe, expect, it } from "vitest";
import { safeParseJson } from "./canonical-json.js";
import { maximumJsonNesting, parseUntrustedJson } from "./parse-untrusted-json.js";

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

// The importer battery's find: JSON.parse takes 5,000 levels of nesting, then JSON.stringify (and
// every recursive reader) overflowed the stack on the parsed value: an uncaught RangeError.
describe("parsing JSON from outside", () => {
  it("parses ordinary JSON as JSON.parse does, brackets inside strings included", () => {
    const text = JSON.stringify({ a: [1, { b: "[[[{{{\\\"]]]" }], c: null });
    expect(parseUntrustedJson(text)).toEqual(JSON.parse(text));
    expect(parseUntrustedJson(nested(maximumJsonNesting))).toBeInstanceOf(Array);
  });

  it("refuses nesting deeper than the limit with a SyntaxError, as bad JSON", () => {
    expect(() => JSON.stringify(JSON.parse(nested(5_000)))).not.toThrow(SyntaxError);
    expect(() => parseUntrustedJson(nested(5_000))).toThrow(SyntaxError);
    expect(() => parseUntrustedJson(nested(maximumJsonNesting + 1))).toThrow(`nested deeper than ${maximumJsonNesting} levels`);
    expect(safeParseJson(`{"path":${nested(5_000)}}`)).toMatchObject({ success: false });
  });
});
