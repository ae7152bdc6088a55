import { describe, expect, it } from "vitest";
import { extractErrorLines, extractIdentifiers } from "./extract-identifiers.js";

describe("extractIdentifiers", () => {
  it("finds URLs, paths, dotted, snake_case, camelCase and PascalCase names, hashes, numbers with units", () => {
    const text = [
      "See https://docs.example.com/api/v2?x=1. Edit src/payment/callbacks.py, then run ./scripts/test.sh.",
      "handle_callback calls astropy.modeling.separable and separabilityMatrix on CompoundModel.",
      "Commit 3f9a2c1d broke it; ticket PAY-1423; took 1530 ms and 2.5 GB; line 4096.",
    ].join("\n");
    const identifiers = extractIdentifiers(text);
    for (const expected of [
      "https://docs.example.com/api/v2?x=1",
      "src/payment/callbacks.py",
      "./scripts/test.sh",
      "handle_callback",
      "astropy.modeling.separable",
      "separabilityMatrix",
      "CompoundModel",
      "3f9a2c1d",
      "PAY-1423",
      "1530 ms",
      "2.5 GB",
      "4096",
    ]) {
      expect(identifiers).toContain(expected);
    }
    // URLs and paths weigh double: they are what a later step opens again.
    expect(identifiers.indexOf("https://docs.example.com/api/v2?x=1")).toBeLessThan(identifiers.indexOf("handle_callback"));
  });

  it("ignores short tokens and strips trailing punctuation", () => {
    expect(extractIdentifiers("a_b, x.y and 12; then run_tests.")).toEqual(["run_tests"]);
  });

  it("caps the list, most frequent names first", () => {
    expect(extractIdentifiers("rare_name often_used often_used often_used", 1)).toEqual(["often_used"]);
  });
});

describe("extractErrorLines", () => {
  it("keeps each failure line once, trimmed", () => {
    const text = "collecting...\nE   AssertionError: expected 3 got 4\nok\nError: ENOENT: no such file or directory, open 'a.txt'\nE   AssertionError: expected 3 got 4";
    expect(extractErrorLines(text)).toEqual(["E   AssertionError: expected 3 got 4", "Error: ENOENT: no such file or directory, open 'a.txt'"]);
  });
});
