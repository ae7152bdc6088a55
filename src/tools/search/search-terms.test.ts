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
  it("meets the forms of a verb and of a noun at one Porter stem", () => {
    for (const group of [
      ["create", "creating", "created", "creates"],
      ["navigate", "navigation", "navigating"],
      ["delete", "deleted", "deletion"],
      ["reserve", "reserved", "reservation", "reservations"],
      ["review", "reviews", "reviewers", "reviewed"],
      ["entity", "entities"],
      ["match", "matches"],
      ["run", "running"],
    ]) {
      expect(new Set(group.map(stemWord)), group.join(", ")).toHaveProperty("size", 1);
    }
  });

  it("keeps words that differ apart, and leaves words with digits or other scripts alone", () => {
    expect(stemWord("user")).toBe("user");
    expect(stemWord("users")).toBe("user");
    expect(new Set(["string", "need", "address", "tab"].map(stemWord))).toHaveProperty("size", 4);
    expect(["string", "need", "address", "tab"].map(stemWord)).toEqual(["string", "need", "address", "tab"]);
    expect(["mp3", "ünïcode", "v2files"].map(stemWord)).toEqual(["mp3", "ünïcode", "v2files"]);
  });
});
