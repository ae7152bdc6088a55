import { describe, expect, it } from "vitest";
import { escapeForTerminal } from "./escape-for-terminal.js";

describe("escapeForTerminal", () => {
  // The trial that found it: a confirmation showed `docs/‮txt.hs‬-readme.md` raw, so the
  // right-to-left override made the path display as something it is not.
  it("escapes bidi overrides so a spoofed path shows what it really is", () => {
    expect(escapeForTerminal("docs/\u202etxt.hs\u202c-readme.md")).toBe("docs/\\u202Etxt.hs\\u202C-readme.md");
  });

  it("escapes terminal escape sequences, C1 controls, zero-width characters and tag characters", () => {
    expect(escapeForTerminal("a\u001b[2Jb\u009bc\u200bd\ufeffe\u{e0041}")).toBe("a\\u001B[2Jb\\u009Bc\\u200Bd\\uFEFFe\\uDB40\\uDC41");
  });

  it("escapes line breaks and tabs unless asked to keep them, and leaves other text alone", () => {
    expect(escapeForTerminal("ü 中文 emoji 🎉\n\tx")).toBe("ü 中文 emoji 🎉\\u000A\\u0009x");
    expect(escapeForTerminal("line\n\tnext\r", { keepLineBreaks: true })).toBe("line\n\tnext\\u000D");
  });

  // Seen in `ctxkit chat`: a reply's "👩‍👩‍👧‍👦" was shown as "👩\u200D👩\u200D👧\u200D👦".
  it("keeps the zero-width joiner inside an emoji sequence and escapes it anywhere else", () => {
    for (const emoji of ["👩\u200d👩\u200d👧\u200d👦", "👩\u200d💻", "🏳\ufe0f\u200d🌈", "👋🏽\u200d❤\ufe0f"]) expect(escapeForTerminal(`a ${emoji} b`)).toBe(`a ${emoji} b`);
    expect(escapeForTerminal("pass\u200dword")).toBe("pass\\u200Dword");
    expect(escapeForTerminal("🎉\u200dx")).toBe("🎉\\u200Dx");
    expect(escapeForTerminal("x\u200d🎉")).toBe("x\\u200D🎉");
    expect(escapeForTerminal("🎉\u200d\u200d🎉")).toBe("🎉\\u200D\\u200D🎉");
    for (const emoji of ["🏃\u200d♀\ufe0f", "🧑🏽\u200d🚀", "👁\ufe0f\u200d🗨\ufe0f"]) expect(escapeForTerminal(emoji)).toBe(emoji);
    // A selector or skin tone that follows no pictograph does not make a joiner after it part of an emoji.
    expect(escapeForTerminal("a\ufe0f\u200d🎉")).toBe("a\ufe0f\\u200D🎉");
    expect(escapeForTerminal("a🏽\u200d🎉")).toBe("a🏽\\u200D🎉");
  });

  it("keeps a JSON string valid and equal in meaning", () => {
    const json = JSON.stringify("docs/\u202etxt\u200b");
    expect(JSON.parse(escapeForTerminal(json))).toBe("docs/\u202etxt\u200b");
  });
});
