import { describe, expect, it } from "vitest";
import { ToolError } from "../tool.js";
import { globToRegExp } from "./glob-pattern.js";

const cases: Array<[pattern: string, matching: string[], notMatching: string[]]> = [
  ["*.ts", ["a.ts", ".hidden.ts"], ["src/a.ts", "a.tsx", "a.js"]],
  ["**/*.ts", ["a.ts", "src/a.ts", "src/deep/b.ts"], ["a.tsx", "src/a.js"]],
  ["src/**", ["src/a", "src/deep/b.ts"], ["src", "lib/a"]],
  ["src/**/index.ts", ["src/index.ts", "src/a/b/index.ts"], ["index.ts", "src/a/xindex.ts"]],
  ["a?c.txt", ["abc.txt", "a-c.txt"], ["ac.txt", "a/c.txt"]],
  ["*.{ts,tsx}", ["a.ts", "b.tsx"], ["c.js"]],
  ["{src,test}/**/*.{ts,js}", ["src/a.ts", "test/x/y.js"], ["lib/a.ts"]],
  ["file[0-9].md", ["file1.md"], ["filea.md", "file10.md"]],
  ["file[!0-9].md", ["filea.md"], ["file1.md"]],
  ["a.b(c)+", ["a.b(c)+"], ["axb(c)+", "a.bc"]],
  ["\\*.md", ["*.md"], ["a.md"]],
  ["a**b", ["axxb"], ["a/b", "ax/xb"]],
];

describe("globToRegExp", () => {
  it.each(cases)("%s", (pattern, matching, notMatching) => {
    const matcher = globToRegExp(pattern);
    for (const candidate of matching) expect(matcher.test(candidate), candidate).toBe(true);
    for (const candidate of notMatching) expect(matcher.test(candidate), candidate).toBe(false);
  });

  it("rejects an unclosed brace", () => {
    expect(() => globToRegExp("*.{ts,js")).toThrow(ToolError);
  });
});

describe("globToRegExp on hostile patterns", () => {
  // `*a*a*…*b` compiled to a JavaScript RegExp backtracks exponentially on a long name of `a`s.
  it("matches a many-star glob against a 4,000-character name promptly (bound generous: was exponential)", () => {
    const matcher = globToRegExp(`${"*a".repeat(14)}*b`);
    const started = performance.now();
    expect(matcher.test("a".repeat(4_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
