import { describe, expect, it } from "vitest";
import { queryHintWords } from "./query-hints.js";

describe("queryHintWords", () => {
  it("reads a file name as a file, with or without a folder", () => {
    expect(queryHintWords("print contents of notes.txt")).toEqual(["file"]);
    expect(queryHintWords("overwrite src/config.yml in the repo")).toEqual(["file"]);
    expect(queryHintWords("open a.txt and b.txt together")).toEqual(["file"]);
  });

  it("reads a web address as a URL, with or without a scheme", () => {
    expect(queryHintWords("load https://example.com")).toEqual(["url"]);
    expect(queryHintWords("open google.com")).toEqual(["url"]);
    expect(queryHintWords("go to example.org/pricing.")).toEqual(["url"]);
  });

  it("finds nothing in plain words, numbers and abbreviations", () => {
    expect(queryHintWords("take a screenshot of the page")).toEqual([]);
    expect(queryHintWords("compute 3.5 times 2, e.g. for a tip")).toEqual([]);
  });
});
