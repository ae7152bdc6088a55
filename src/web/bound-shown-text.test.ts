import { describe, expect, it } from "vitest";
import { boundShownText, shownTextLimits } from "./bound-shown-text.js";

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("a recorded response, thinking, tool call or status bar cut for the page", () => {
  it("is whole up to more than a model's longest reply", () => {
    const reply = "r".repeat(300_000);
    expect(boundShownText(reply)).toBe(reply);
    expect(shownTextLimits.head + shownTextLimits.end).toBeGreaterThanOrEqual(300_000);
  });

  it("keeps its start and end around a marker naming how many characters are left out", () => {
    expect(boundShownText(`BEGIN${"r".repeat(100)}FINISH`, { head: 7, end: 8 })).toBe("BEGINrr\n[… 96 characters not shown: ctxkit view shows the start and the end …]\nrrFINISH");
  });

  it("never cuts an emoji in half, and counts the characters it leaves out", () => {
    const text = "😀".repeat(100);
    for (const limits of [{ head: 7, end: 9 }, { head: 8, end: 8 }]) {
      const shown = boundShownText(text, limits);
      expect(shown).not.toMatch(loneSurrogate);
      const [head, end] = shown.split(/\n\[… .* not shown: .*\]\n/);
      const left = Number(/\[… ([\d,]+) characters/.exec(shown)![1]!.replace(/,/g, ""));
      expect(head!.length + left + end!.length).toBe(text.length);
    }
  });
});
