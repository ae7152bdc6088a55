import { describe, expect, it } from "vitest";
import { queryHintWords, withoutAddressNoise } from "./query-hints.js";

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

describe("withoutAddressNoise", () => {
  it("drops an address's scheme, www and top-level domain, and keeps its name and path", () => {
    expect(withoutAddressNoise("open https://www.github.com/acme/app").split(/\s+/)).toEqual(["open", "github/acme/app"]);
    expect(withoutAddressNoise("go to example.org/pricing")).toBe("go to example/pricing");
  });

  it("keeps file names and plain words", () => {
    expect(withoutAddressNoise("read config.json and notes.txt")).toBe("read config.json and notes.txt");
    expect(withoutAddressNoise("compute 3.5 times 2, e.g. for a tip")).toBe("compute 3.5 times 2, e.g. for a tip");
  });
});
