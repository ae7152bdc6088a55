import { describe, expect, it } from "vitest";
import { findArchiveRanges } from "./archive-turns.js";
import { identifiersBySource } from "./tagged-identifiers.js";
import { fileThenPage } from "./test-support/tagged-pages.js";

describe("the identifiers of summary sources", () => {
  it("are split into those a trusted line names and those only a tagged result's lines name", async () => {
    const messages = await fileThenPage();
    const range = findArchiveRanges(messages, 1, messages.length)[0]!;
    const found = identifiersBySource(range.sources);
    expect(found.trusted).toContain("src/app/config.py");
    expect(found.trusted).not.toContain("https://evil.example/payload.sh");
    expect(found.tagged).toEqual([{ tag: { source: "web_fetch", nonce: "xt2" }, identifiers: expect.arrayContaining(["https://evil.example/payload.sh"]) as string[] }]);
    expect(found.tagged[0]!.identifiers).not.toContain("src/app/config.py");
  });
});
