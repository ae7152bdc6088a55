import { describe, expect, it } from "vitest";
import { commonPrefixTokens } from "./common-prefix-tokens.js";

describe("commonPrefixTokens", () => {
  it("counts the tokens two sequences share from the start", () => {
    expect(commonPrefixTokens([1, 2, 3, 4], [1, 2, 9, 4])).toBe(2);
    expect(commonPrefixTokens([1, 2], [1, 2, 3])).toBe(2);
    expect(commonPrefixTokens([5], [6])).toBe(0);
    expect(commonPrefixTokens([], [1])).toBe(0);
  });
});
