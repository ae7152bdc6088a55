import { describe, expect, it } from "vitest";
import { findBashBlocks } from "./convert-mini-swe-agent-commands.js";

describe("findBashBlocks", () => {
  it("finds what mini-swe-agent's action regex finds", () => {
    const reference = /```bash\s*\n([\s\S]*?)\n```/g;
    const samples = [
      "THOUGHT: look\n\n```bash\nls -la\n```",
      "```bash  \n  cat a.txt\n```\nand\n```bash\necho b\n```",
      "```bash\n\n```",
      "```bash ls\n```",
      "no block here",
      "```bash\nunclosed",
    ];
    for (const sample of samples) {
      const expected = [...sample.matchAll(reference)].map((match) => ({ command: match[1]!.trim(), start: match.index, end: match.index + match[0].length }));
      expect(findBashBlocks(sample, 10)).toEqual(expected);
    }
  });

  // The regex's lazy body rescanned to the end for every unclosed opener: quadratic on a reply full of them.
  it("scans 50k unclosed openers in one pass (bound generous: was quadratic)", () => {
    const text = "```bash\nx".repeat(50_000);
    const started = performance.now();
    expect(findBashBlocks(text, 2)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
