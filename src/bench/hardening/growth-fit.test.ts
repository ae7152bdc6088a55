import { describe, expect, it } from "vitest";
import { fitGrowthExponent, interleavedOrder, median } from "./growth-fit.js";

describe("fitGrowthExponent", () => {
  const sizes = [2.5, 5, 10, 20];
  it("gives 1 for linear work and 2 for quadratic work", () => {
    expect(fitGrowthExponent(sizes.map((size) => ({ size, ms: 9 * size })))).toBeCloseTo(1, 6);
    expect(fitGrowthExponent(sizes.map((size) => ({ size, ms: 3 * size * size })))).toBeCloseTo(2, 6);
  });

  it("keeps linear work under log2(2.5) when one point is 40% off, where a ratio of two points would not", () => {
    const noisy = sizes.map((size) => ({ size, ms: 9 * size * (size === 10 ? 1.4 : 1) }));
    expect((9 * 10 * 1.4) / (9 * 5)).toBeGreaterThan(2.5);
    expect(fitGrowthExponent(noisy)).toBeLessThan(Math.log2(2.5));
  });

  it("flags the old re-scanning parser (3.5× per doubling)", () => {
    expect(fitGrowthExponent(sizes.map((size, index) => ({ size, ms: 80 * 3.5 ** index })))).toBeGreaterThan(Math.log2(2.5));
  });
});

describe("interleavedOrder and median", () => {
  it("runs the sizes forward then backward, and takes the middle value", () => {
    expect(interleavedOrder([0, 5, 10], 3)).toEqual([0, 5, 10, 10, 5, 0, 0, 5, 10]);
    expect(median([5, 1, 100, 3, 4])).toBe(4);
    expect(median([1, 2, 3, 10])).toBe(2.5);
  });
});
