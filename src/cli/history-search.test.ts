import { describe, expect, it } from "vitest";
import { createHistorySearch } from "./history-search.js";

// Readline's history: newest first.
const history = ["git push", "npm test -- chat", "git commit -m fix", "npm run build", "git status"];

function searcher() {
  const screen: string[] = [];
  let redraws = 0;
  const search = createHistorySearch({ history: () => history, write: (text) => screen.push(text), redraw: () => (redraws += 1) });
  /** The search prompt as last drawn, without the line-clearing escapes. */
  const prompt = () => screen.at(-1)!.replace("\r\u001b[K", "");
  return { search, prompt, redraws: () => redraws };
}

describe("createHistorySearch", () => {
  it("passes keys through untouched when no search is under way", () => {
    const { search } = searcher();
    expect(search.filter("hello\u001b[A\r")).toBe("hello\u001b[A\r");
    expect(search.active).toBe(false);
  });

  it("finds the newest entry containing what is typed, and sends it with Enter", () => {
    const { search, prompt } = searcher();
    expect(search.filter("\u0012")).toBe("");
    expect(search.active).toBe(true);
    expect(prompt()).toBe("(reverse-i-search)`': ");
    expect(search.filter("npm")).toBe("");
    expect(prompt()).toBe("(reverse-i-search)`npm': npm test -- chat");
    // Enter replaces the line readline holds with the match and submits it.
    expect(search.filter("\r")).toBe("\u0005\u0015npm test -- chat\r");
    expect(search.active).toBe(false);
  });

  it("steps to older matches with Ctrl-R again and says when there are no more", () => {
    const { search, prompt } = searcher();
    search.filter("\u0012git");
    expect(prompt()).toBe("(reverse-i-search)`git': git push");
    search.filter("\u0012");
    expect(prompt()).toBe("(reverse-i-search)`git': git commit -m fix");
    search.filter("\u0012");
    expect(prompt()).toBe("(reverse-i-search)`git': git status");
    search.filter("\u0012");
    expect(prompt()).toBe("(failed reverse-i-search)`git': git status");
    expect(search.filter("\r")).toBe("\u0005\u0015git status\r");
  });

  it("narrows from the entry shown as more is typed, and widens again with Backspace", () => {
    const { search, prompt } = searcher();
    search.filter("\u0012git\u0012");
    expect(prompt()).toBe("(reverse-i-search)`git': git commit -m fix");
    search.filter(" s");
    expect(prompt()).toBe("(reverse-i-search)`git s': git status");
    search.filter("x");
    expect(prompt()).toBe("(failed reverse-i-search)`git sx': git status");
    search.filter("\u007f\u007f\u007f");
    expect(prompt()).toBe("(reverse-i-search)`git': git push");
  });

  it("gives up with Esc or Ctrl-G, leaving the line as it was", () => {
    for (const cancel of ["\u001b", "\u0007"]) {
      const { search, redraws } = searcher();
      expect(search.filter(`\u0012npm${cancel}`)).toBe("");
      expect(search.active).toBe(false);
      expect(redraws()).toBe(1);
      // Keys after the search go to readline again.
      expect(search.filter("abc")).toBe("abc");
    }
  });

  it("treats keys right after a bare Esc as typed, not as part of an escape sequence", () => {
    const { search } = searcher();
    expect(search.filter("\u0012npm\u001bdraft")).toBe("draft");
  });

  it("keeps the match for editing on Tab or an arrow key", () => {
    const { search } = searcher();
    expect(search.filter("\u0012build\t")).toBe("\u0005\u0015npm run build");
    const arrow = searcher().search;
    expect(arrow.filter("\u0012build")).toBe("");
    expect(arrow.filter("\u001b[D")).toBe("\u0005\u0015npm run build\u001b[D");
  });

  it("passes Ctrl-C on after ending the search, so it still interrupts", () => {
    const { search } = searcher();
    expect(search.filter("\u0012npm\u0003")).toBe("\u0003");
    expect(search.active).toBe(false);
  });

  it("sends the line typed before the search when Enter finds nothing", () => {
    const { search, prompt } = searcher();
    search.filter("\u0012zzz");
    expect(prompt()).toBe("(failed reverse-i-search)`zzz': ");
    expect(search.filter("\r")).toBe("\r");
  });

  it("types a recalled message's line breaks as the key it is given, so readline does not take them as Enter", () => {
    const search = createHistorySearch({ history: () => ["first\nsecond"], write: () => undefined, redraw: () => undefined, lineBreakKey: "\uE000" });
    search.filter("\u0012sec");
    expect(search.filter("\t")).toBe("\u0005\u0015first\uE000second");
  });
});
