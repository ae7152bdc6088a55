import { describe, expect, it } from "vitest";
import { summarizeDeterministically } from "./deterministic-summarizer.js";
import { extractErrorLines, extractIdentifiers } from "./extract-identifiers.js";
import { maximumIdentifierTokenLength, splitIdentifierTokens } from "./identifier-tokens.js";

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

// The trial that found it: the old path pattern backtracked over every start position of a long run
// of word characters (16k characters: 210 ms, 32k: 830 ms; a model's 200k-character base64 word froze
// compaction for 66 s, and resuming a session with a 600 KB message hung for minutes).
describe("extraction on hostile text stays linear", () => {
  const base64Word = (length: number) => "QUJDRGVmZ2hpamtsbW5vcHFyc3R1dnd4eXo0MjE".repeat(Math.ceil(length / 39)).slice(0, length);
  const shapes: Record<string, (length: number) => string> = {
    "a base64-like word": base64Word,
    "dollar-joined names": (length) => "a$".repeat(length / 2),
    "comma-joined digits": (length) => "1,".repeat(length / 2),
    "dotted names without an end": (length) => `${"a.".repeat(length / 2)}$`,
    "path pieces without a slash": (length) => "x-".repeat(length / 2),
  };

  for (const [shape, make] of Object.entries(shapes)) {
    it(`extracts from 200k characters of ${shape} promptly (bound generous: was quadratic)`, () => {
      const text = `see src/a.ts and ${make(200_000)} then handle_callback`;
      const started = performance.now();
      const identifiers = extractIdentifiers(text);
      // A proof of "no hang", not a benchmark: the old code took minutes on these inputs.
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(identifiers).toEqual(expect.arrayContaining(["src/a.ts", "handle_callback"]));
    });
  }

  it("hands the patterns only bounded tokens, whose total length never exceeds the text's", () => {
    for (const make of Object.values(shapes)) {
      for (const length of [16_000, 64_000]) {
        const text = `${make(length)} ${"word ".repeat(length / 10)}${make(300)}`;
        const tokens = splitIdentifierTokens(text);
        expect(Math.max(...tokens.map((token) => token.text.length))).toBeLessThanOrEqual(maximumIdentifierTokenLength);
        expect(tokens.reduce((sum, token) => sum + token.text.length, 0)).toBeLessThanOrEqual(text.length);
      }
    }
  });

  it("still finds numbers with a unit after one space, and identifiers between quotes and brackets", () => {
    expect(extractIdentifiers('took 1530 ms; ("src/b.ts") [handle_callback]')).toEqual(
      expect.arrayContaining(["1530 ms", "src/b.ts", "handle_callback"]),
    );
  });

  it("summarises a 600 KB message for compaction without hanging", () => {
    const text = [base64Word(300_000), "a$".repeat(75_000), "1,".repeat(75_000), "Error: failed at src/x.ts:12"].join("\n");
    const summary = summarizeDeterministically({ purpose: "compaction", sources: [{ label: "turn 1", kind: "assistant", text }], maxTokens: 500 });
    expect(summary).toContain("src/x.ts");
  });
});
