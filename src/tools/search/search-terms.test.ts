import { describe, expect, it } from "vitest";
import { toSearchTerms } from "./search-terms.js";
import { stemWord } from "./stem-word.js";

describe("toSearchTerms", () => {
  it("keeps a capitalised word whole as well as split at its humps", () => {
    expect(toSearchTerms("Evaluate JavaScript expression", { stemming: false })).toEqual(["evaluate", "java", "script", "javascript", "expression"]);
    expect(toSearchTerms("getUserDetails", { stemming: false })).toEqual(["get", "user", "details", "getuserdetails"]);
  });

  it("splits identifiers at underscores, hyphens and dots, and drops stop words", () => {
    expect(toSearchTerms("mcp__notion__API-post-search for the page", { stemming: false })).toEqual(["mcp", "notion", "api", "post", "search", "page"]);
  });

  it("reads an acronym's plural as the acronym", () => {
    expect(toSearchTerms("list PRs and URLs", { stemming: false })).toEqual(["list", "pr", "url"]);
  });

  it("skips words too long to be search terms", () => {
    expect(toSearchTerms(`data ${"A".repeat(200)}`, { stemming: false })).toEqual(["data"]);
  });
});

describe("stemWord", () => {
  it("meets the forms of a verb and of a noun at one stem", () => {
    for (const group of [
      ["create", "creating", "created", "creation", "creates"],
      ["navigate", "navigation", "navigating"],
      ["delete", "deleted", "deletion"],
      ["entity", "entities"],
      ["match", "matches"],
      ["run", "running"],
    ]) {
      expect(new Set(group.map(stemWord)), group.join(", ")).toHaveProperty("size", 1);
    }
  });

  it("leaves short words, words whose stem would not be a word, and -ss/-us endings alone", () => {
    expect(["string", "need", "status", "address", "use", "tab"].map(stemWord)).toEqual(["string", "need", "status", "address", "use", "tab"]);
  });
});
