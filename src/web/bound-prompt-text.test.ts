import { describe, expect, it } from "vitest";
import { boundPromptText, promptTextLimits } from "./bound-prompt-text.js";

const limits = { whole: 0, head: 10, beforeDivergence: 5, afterDivergence: 8, end: 4, minimumCut: 1 };

describe("a prompt's text cut for the page", () => {
  it("is whole when it fits", () => {
    const prompt = { text: "short prompt", tokens: 3, reusableChars: 5, divergentToken: { start: 5, end: 6, index: 1 }, ranges: [] };
    expect(boundPromptText(prompt, limits)).toEqual({ ...prompt, fullLength: 12, omitted: [] });
  });

  it("keeps the start, the part around the first divergent token and the end, with a marker naming each cut's size", () => {
    const text = `${"h".repeat(10)}${"a".repeat(1000)}BEFORE[X]AFTER!!${"b".repeat(2000)}tail`;
    const divergent = text.indexOf("X");
    const prompt = { text, tokens: 900, reusableChars: divergent, divergentToken: { start: divergent, end: divergent + 1, index: 400 }, ranges: [{ part: "header" as const, start: 0, end: text.length, tokens: 900 }] };
    const cut = boundPromptText(prompt, limits);
    expect(cut.fullLength).toBe(text.length);
    expect(cut.omitted.map((gap) => gap.chars)).toEqual([1002, 2001]);
    const kept = cut.omitted.reduce((rest, gap) => rest.replace(cut.text.slice(gap.start, gap.end), "|"), cut.text);
    expect(kept).toBe(`${"h".repeat(10)}|FORE[X]AFTER!|tail`);
    expect(cut.text.slice(cut.omitted[0]!.start, cut.omitted[0]!.end)).toContain("1,002 characters of this prompt not shown");
    // Offsets still point at the same characters.
    expect(cut.text.slice(cut.divergentToken!.start, cut.divergentToken!.end)).toBe("X");
    expect(cut.reusableChars).toBe(cut.divergentToken!.start);
    expect(cut.ranges[0]).toMatchObject({ start: 0, end: cut.text.length });
  });

  it("keeps a stretch shorter than the minimum cut instead of marking it", () => {
    const text = `${"h".repeat(10)}${"a".repeat(20)}X${"b".repeat(1000)}`;
    const divergent = text.indexOf("X");
    const cut = boundPromptText({ text, tokens: 300, reusableChars: divergent, divergentToken: { start: divergent, end: divergent + 1, index: 9 }, ranges: [] }, { ...limits, minimumCut: 50 });
    expect(cut.omitted.map((gap) => gap.chars)).toEqual([1000 - 8 - 4 + 1]);
    expect(cut.text.startsWith(text.slice(0, divergent + 8))).toBe(true);
  });

  it("puts a reusable end that falls in a cut after that cut's marker", () => {
    const text = "x".repeat(100);
    const cut = boundPromptText({ text, tokens: 25, reusableChars: 100, ranges: [] }, { whole: 0, head: 10, beforeDivergence: 5, afterDivergence: 0, end: 4, minimumCut: 1 });
    expect(cut.reusableChars).toBe(cut.text.length);
    expect(cut.omitted).toHaveLength(1);
    expect(cut.omitted[0]!.chars).toBe(85);
  });

  // The first cut kept about 450,000 characters: a 60,000-token prompt (a normal coding session) came
  // cut when it stopped being reusable near its start.
  it("sends a prompt up to a full context window whole, wherever it stops being reusable", () => {
    const text = "y".repeat(900_000);
    for (const focus of [0, 450_000, 900_000]) {
      const cut = boundPromptText({ text, tokens: 225_000, reusableChars: focus, ranges: [] });
      expect(cut).toMatchObject({ text, reusableChars: focus, fullLength: 900_000, omitted: [] });
    }
    expect(promptTextLimits.whole).toBeGreaterThanOrEqual(900_000);
  });

  it("never cuts an emoji or other surrogate pair in half, and the kept and left-out characters add up", () => {
    const text = `${"😀".repeat(500)}X${"👩‍💻".repeat(500)}`;
    for (const odd of [{ head: 11, beforeDivergence: 7, afterDivergence: 9, end: 5 }, { head: 12, beforeDivergence: 6, afterDivergence: 10, end: 6 }]) {
      const divergent = text.indexOf("X");
      const cut = boundPromptText({ text, tokens: 2_000, reusableChars: divergent, divergentToken: { start: divergent, end: divergent + 1, index: 500 }, ranges: [] }, { whole: 0, minimumCut: 1, ...odd });
      expect(cut.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      expect(cut.omitted).toHaveLength(2);
      expect(cut.text.length + cut.omitted.reduce((sum, gap) => sum + gap.chars - (gap.end - gap.start), 0)).toBe(text.length);
      expect(cut.text.slice(cut.divergentToken!.start, cut.divergentToken!.end)).toBe("X");
    }
  });
});
