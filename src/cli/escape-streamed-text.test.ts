import { describe, expect, it } from "vitest";
import { createStreamedTextEscaper } from "./escape-streamed-text.js";

function shown(deltas: string[]): string {
  const escaper = createStreamedTextEscaper();
  return deltas.map((delta) => escaper.escape(delta)).join("") + escaper.flush();
}

describe("a streamed reply escaped delta by delta", () => {
  // Seen with streamed replies: "👩", "\u200D", "💻" arrived as three deltas and showed as "👩\u200D💻".
  it("keeps an emoji's zero-width joiners however the deltas split it", () => {
    const family = "a 👩\u200d👩\u200d👧\u200d👦 and 🏳\ufe0f\u200d🌈 b";
    for (const size of [1, 2, 3, 5]) expect(shown(family.match(new RegExp(`[\\s\\S]{1,${size}}`, "gu"))!)).toBe(family);
    expect(shown(["👩", "\u200d", "💻"])).toBe("👩\u200d💻");
  });

  it("escapes a joiner anywhere else, also one a delta or the whole text ends on", () => {
    expect(shown(["pass", "\u200d", "word"])).toBe("pass\\u200Dword");
    expect(shown(["🎉\u200d"])).toBe("🎉\\u200D");
    expect(shown(["🎉", "\u200d", "x\u202e"])).toBe("🎉\\u200Dx\\u202E");
    expect(shown(["line\n", "\u001b[2J"])).toBe("line\n\\u001B[2J");
  });
});
