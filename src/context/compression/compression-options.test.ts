import { describe, expect, it } from "vitest";
import { ConfigError } from "../../types/index.js";
import { resolveCompressionSettings } from "./compression-options.js";

const WINDOW = 20_000;

describe("partialCompaction's range", () => {
  it("takes false or a share of the window below the trigger, and says how to fix anything else", () => {
    expect(resolveCompressionSettings({ contextWindow: WINDOW, partialCompaction: 0.5 }).partialCompaction).toBe(0.5);
    expect(resolveCompressionSettings({ contextWindow: WINDOW, partialCompaction: false }).partialCompaction).toBe(false);
    for (const partialCompaction of [0, -0.2, 0.9, 1, 50, Number.NaN]) {
      const attempt = () => resolveCompressionSettings({ contextWindow: WINDOW, partialCompaction });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(/partialCompaction must be false or a share of the window between 0 and the trigger \(0\.9\).*partialCompaction: 0\.5/);
    }
  });
});

describe("summaryLineShare's range", () => {
  it("takes 0 (off) up to below the target, 0.1 by default, and says how to fix anything else", () => {
    expect(resolveCompressionSettings({ contextWindow: WINDOW }).summaryLineShare).toBe(0.1);
    expect(resolveCompressionSettings({ contextWindow: WINDOW, summaryLineShare: 0 }).summaryLineShare).toBe(0);
    for (const summaryLineShare of [-0.1, 0.5, 1, Number.NaN]) {
      const attempt = () => resolveCompressionSettings({ contextWindow: WINDOW, summaryLineShare });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(/summaryLineShare must be a share of the window from 0 \(off\) to below the target \(0\.5\).*summaryLineShare: 0\.1/);
    }
  });
});
