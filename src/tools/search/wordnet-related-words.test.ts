import { describe, expect, it } from "vitest";
import { baseForms, createRelatedWordLookup, wordNetRelatedWords } from "./wordnet-related-words.js";

describe("WordNet related words", () => {
  it("reads the shipped table: a collocation, a verb's synonyms and derived nouns, the words one level up", () => {
    expect(wordNetRelatedWords("call_off")?.close).toContain("cancel");
    expect(wordNetRelatedWords("purchase")).toMatchObject({ close: expect.arrayContaining(["buy", "purchaser"]), broader: expect.arrayContaining(["acquire"]) });
    expect(wordNetRelatedWords("qqqzzz")).toBeUndefined();
  });

  it("finds a word under its inflected forms, by WordNet's detachment rules", () => {
    expect(wordNetRelatedWords("purchased")?.close).toContain("buy");
    expect(wordNetRelatedWords("purchases")?.close).toContain("buy");
    expect(baseForms("boxes")).toEqual(expect.arrayContaining(["boxes", "boxe", "box"]));
    expect(baseForms("approved")).toEqual(expect.arrayContaining(["approve", "approv"]));
    expect(baseForms("is")).toEqual(["is"]);
  });

  it("leaves out names and acronyms (the noun ADD is not the verb add)", () => {
    expect(wordNetRelatedWords("add")?.close).not.toContain("adhd");
    expect(wordNetRelatedWords("add")?.close).toContain("append");
  });

  it("looks words up in a table of the same format by binary search", () => {
    const lookup = createRelatedWordLookup("apple\tfruit\tfood\nbanana\t\tfruit\ncherry\tred\t\n");
    expect(lookup("apple")).toEqual({ close: ["fruit"], broader: ["food"] });
    expect(lookup("bananas")).toEqual({ close: [], broader: ["fruit"] });
    expect(lookup("cherry")).toEqual({ close: ["red"], broader: [] });
    expect(lookup("date")).toBeUndefined();
  });
});
