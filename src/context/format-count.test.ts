import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCount } from "./format-count.js";

describe("formatCount", () => {
  it("groups whole numbers exactly as toLocaleString('en-US') does", () => {
    for (const value of [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, -1, -1234, -1_000_000, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      expect(formatCount(value)).toBe(value.toLocaleString("en-US"));
    }
    fc.assert(fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (value) => formatCount(value) === value.toLocaleString("en-US")));
  });

  it("leaves what is not a safe whole number to ICU", () => {
    for (const value of [-0, 0.5, 1234.5678, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatCount(value)).toBe(value.toLocaleString("en-US"));
    }
  });
});
