import { describe, expect, it } from "vitest";
import { createTypoCorrector, isOneEditApart } from "./typo-corrector.js";

describe("createTypoCorrector", () => {
  const corrector = createTypoCorrector(["click", "search", "list", "screenshot", "navigat", "request"]);

  it("corrects a swap of neighbouring letters as one edit", () => {
    expect(corrector.correct("clikc")).toEqual(["click"]);
    expect(corrector.correct("serach")).toEqual(["search"]);
    expect(corrector.correct("lsit")).toEqual(["list"]);
    expect(corrector.correct("reqeust")).toEqual(["request"]);
  });

  it("corrects one missing, extra or wrong letter", () => {
    expect(corrector.correct("navgat")).toEqual(["navigat"]);
    expect(corrector.correct("scrennshot")).toEqual(["screenshot"]);
    expect(corrector.correct("clicck")).toEqual(["click"]);
  });

  it("leaves known words, short words and words two edits away alone", () => {
    expect(corrector.correct("click")).toEqual([]);
    expect(corrector.correct("lst")).toEqual([]);
    expect(corrector.correct("clkci")).toEqual([]);
  });
});

describe("isOneEditApart", () => {
  it("counts insertions, deletions, substitutions and adjacent swaps as one edit", () => {
    expect([isOneEditApart("abcd", "abd"), isOneEditApart("abd", "abcd"), isOneEditApart("abcd", "abxd"), isOneEditApart("abcd", "abdc")]).toEqual([true, true, true, true]);
    expect([isOneEditApart("abcd", "abcd"), isOneEditApart("abcd", "badc"), isOneEditApart("abcd", "ab")]).toEqual([false, false, false]);
  });
});
