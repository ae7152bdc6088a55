import { describe, expect, it } from "vitest";
import { chooseStatusBarMode } from "./choose-status-bar-mode.js";

describe("chooseStatusBarMode (append when αSN/2 < (1−α)R)", () => {
  it("appends a small status when long suffixes separate the updates", () => {
    // 0.1·100·10/2 = 50 < 0.9·2000 = 1800
    const decision = chooseStatusBarMode({ statusTokens: 100, appendedTokensPerUpdate: 2000, expectedUpdates: 10, cachedInputPriceRatio: 0.1 });
    expect(decision).toMatchObject({ mode: "append", appendSide: 50, replaceSide: 1800 });
    expect(decision.reason).toContain("50 < (1−α)R = 0.9·2000 = 1800");
  });

  it("replaces a large status that is updated every call with little in between", () => {
    // 0.5·1500·40/2 = 15000 > 0.5·60 = 30
    expect(chooseStatusBarMode({ statusTokens: 1500, appendedTokensPerUpdate: 60, expectedUpdates: 40, cachedInputPriceRatio: 0.5 }).mode).toBe("replace");
  });

  it("replaces at equality (the costs tie and replace keeps no stale statuses)", () => {
    // 0.5·100·4/2 = 100 = 0.5·200
    const decision = chooseStatusBarMode({ statusTokens: 100, appendedTokensPerUpdate: 200, expectedUpdates: 4, cachedInputPriceRatio: 0.5 });
    expect(decision.appendSide).toBe(decision.replaceSide);
    expect(decision.mode).toBe("replace");
    expect(decision.reason).toContain("100 = (1−α)R");
  });

  it("flips exactly at the boundary as R grows by one token", () => {
    const inputs = { statusTokens: 200, expectedUpdates: 10, cachedInputPriceRatio: 0.2 };
    // αSN/2 = 200; (1−α)R = 0.8R: R = 250 ties, 251 appends.
    expect(chooseStatusBarMode({ ...inputs, appendedTokensPerUpdate: 250 }).mode).toBe("replace");
    expect(chooseStatusBarMode({ ...inputs, appendedTokensPerUpdate: 251 }).mode).toBe("append");
  });

  it("always appends when cached input is free (α = 0) and anything is appended, never when nothing is", () => {
    expect(chooseStatusBarMode({ statusTokens: 10_000, appendedTokensPerUpdate: 1, expectedUpdates: 1000, cachedInputPriceRatio: 0 }).mode).toBe("append");
    expect(chooseStatusBarMode({ statusTokens: 10, appendedTokensPerUpdate: 0, expectedUpdates: 10, cachedInputPriceRatio: 0 }).mode).toBe("replace");
  });

  it("always replaces without a cache discount (α = 1): nothing is lost by re-processing", () => {
    expect(chooseStatusBarMode({ statusTokens: 1, appendedTokensPerUpdate: 100_000, expectedUpdates: 1, cachedInputPriceRatio: 1 }).mode).toBe("replace");
  });

  it("rejects inputs outside the model", () => {
    expect(() => chooseStatusBarMode({ statusTokens: -1, appendedTokensPerUpdate: 1, expectedUpdates: 1, cachedInputPriceRatio: 0.1 })).toThrow(/statusTokens/);
    expect(() => chooseStatusBarMode({ statusTokens: 1, appendedTokensPerUpdate: 1, expectedUpdates: 1, cachedInputPriceRatio: 1.5 })).toThrow(/between 0 and 1/);
  });
});
