import { describe, expect, it } from "vitest";
import { charsOver4, measureEstimatorError, type CountTokens, type ErrorCounters } from "./estimator-error.js";
import type { TextCategory } from "./text-category.js";

/** A counter that knows the answer for each test text, so every sum below can be checked by hand. */
const table = (counts: Record<string, number>): CountTokens => (text) => counts[text] ?? Number.NaN;

const counters: ErrorCounters = {
  exact: {
    qwen3: table({ "one two": 3, three: 1, 上下文工程: 4 }),
    o200k: table({ "one two": 4, three: 4, 上下文工程: 5 }),
  },
  estimate: {
    balanced: table({ "one two": 3, three: 2, 上下文工程: 4 }),
    qwen3: table({ "one two": 2, three: 1, 上下文工程: 4 }),
    o200k: table({ "one two": 5, three: 5, 上下文工程: 5 }),
  },
};

const categories: TextCategory[] = [
  { id: "words", name: "words", source: "hand-written", texts: ["one two", "three"], groups: ["a", "b"] },
  { id: "han", name: "Han", source: "hand-written", texts: ["上下文工程"], groups: ["a"] },
];

describe("measureEstimatorError", () => {
  it("rounds chars/4 up per text", () => {
    expect(["one two", "three", "上下文工程", ""].map(charsOver4)).toEqual([2, 2, 2, 0]);
  });

  it("sums each counter over a category and reports (Σestimate − Σexact) / Σexact against each tokenizer", () => {
    const [words, han] = measureEstimatorError(categories, counters).categories;
    expect(words).toEqual({
      id: "words",
      name: "words",
      source: "hand-written",
      texts: 2,
      characters: 12,
      utf8Bytes: 12,
      exact: { qwen3: 4, o200k: 8 },
      estimated: { charsOver4: 4, balanced: 5, qwen3: 3, o200k: 10 },
      // chars/4: 4 vs 4 and vs 8; balanced: 5 vs 4 and vs 8; matching: 3 vs 4, 10 vs 8.
      error: { qwen3: { charsOver4: 0, balanced: 0.25, matching: -0.25 }, o200k: { charsOver4: -0.5, balanced: -0.375, matching: 0.25 } },
    });
    expect(han).toMatchObject({
      characters: 5,
      utf8Bytes: 15,
      exact: { qwen3: 4, o200k: 5 },
      estimated: { charsOver4: 2, balanced: 4, qwen3: 4, o200k: 5 },
      error: { qwen3: { charsOver4: -0.5, balanced: 0, matching: 0 }, o200k: { charsOver4: -0.6, balanced: -0.2, matching: 0 } },
    });
  });

  it("sums every category into one row, so per-text errors of opposite sign cancel", () => {
    const { all } = measureEstimatorError(categories, counters);
    expect(all).toMatchObject({
      id: "all",
      source: "words + Han",
      texts: 3,
      characters: 17,
      utf8Bytes: 27,
      exact: { qwen3: 8, o200k: 13 },
      estimated: { charsOver4: 6, balanced: 9, qwen3: 7, o200k: 15 },
      error: { qwen3: { charsOver4: -0.25, balanced: 0.125, matching: -0.125 } },
    });
    expect(all.error.o200k.charsOver4).toBeCloseTo(-7 / 13, 12);
    expect(all.error.o200k.matching).toBeCloseTo(2 / 13, 12);
  });

  it("reports an empty category with zero error instead of NaN", () => {
    const [empty] = measureEstimatorError([{ id: "empty", name: "empty", source: "", texts: [], groups: [] }], counters).categories;
    expect(empty!.error).toEqual({ qwen3: { charsOver4: 0, balanced: 0, matching: 0 }, o200k: { charsOver4: 0, balanced: 0, matching: 0 } });
  });
});
