import { describe, expect, it, vi } from "vitest";
import { createMarkdownStream } from "./markdown-stream.js";

function streamReply(chunks: string[], renderer?: null) {
  let written = "";
  const stream = renderer === null ? createMarkdownStream((text) => (written += text), 80, null) : createMarkdownStream((text) => (written += text), 80);
  for (const chunk of chunks) stream.push(chunk);
  stream.end();
  return written;
}

describe("a chat reply on a terminal", () => {
  it("ends on a new line without marked-terminal, so the prompt drawn next does not erase it", () => {
    expect(streamReply(["The folder has ", "**files**."], null)).toBe("The folder has **files**.\n");
    expect(streamReply(["Done.\n"], null)).toBe("Done.\n");
    expect(streamReply([], null)).toBe("");
  });

  it("ends on a new line when rendered with marked-terminal", () => {
    const written = streamReply(["The folder has ", "**files**."]);
    expect(written).toContain("files");
    expect(written.endsWith("\n")).toBe(true);
  });

  it("cuts blocks at the same places however the reply is split into deltas (blank lines inside a fence do not cut)", () => {
    const reply = "Intro line\nstill intro\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\nAfter the fence\n\n- one\n- two\n\nEnd.";
    // Blocks rendered by one delta are parsed together (one blank line apart), by two deltas apart: compare without blank lines.
    const shown = (pieces: string[]) => streamReply(pieces).replace(/\n{2,}/g, "\n");
    const whole = shown([reply]);
    expect(whole).toMatch(/const a = 1;\n.*\n?.*const b = 2;/);
    for (const size of [1, 2, 3, 7, 24]) expect(shown(reply.match(new RegExp(`[\\s\\S]{1,${size}}`, "g"))!)).toBe(whole);
    let written = "";
    const stream = createMarkdownStream((text) => (written += text), 80);
    stream.push("```\nfirst\n\nsecond\n");
    expect(written).toBe("");
    expect(stream.held()).toBe(18);
    stream.push("```\n");
    expect(written).toContain("second");
    expect(stream.held()).toBe(0);
  });

  // Each delta used to make the stream read the whole held text again: a 340 kB reply without a blank
  // line took 12 s of CPU (1 MB: two minutes) while the chat showed nothing. The work is counted, not
  // timed: every character a string search, split or regular expression reads while the deltas arrive.
  // Reading each delta's lines once is a few times the reply's length (4 times here); reading the held
  // text again on every delta was 4,000 times it.
  it("reads each delta of a long reply without a blank line once, not the held text again, and shows all of it at the end", () => {
    const reply = Array.from({ length: 600 }, (_, line) => `line ${line} ${"x".repeat(line % 150)}`).join("\n");
    expect(reply.length).toBeGreaterThan(45_000);
    let written = "";
    const stream = createMarkdownStream((text) => (written += text), 80);
    const read = countCharactersSearched(() => {
      for (let offset = 0; offset < reply.length; offset += 24) stream.push(reply.slice(offset, offset + 24));
    });
    expect(written).toBe("");
    expect(stream.held()).toBe(reply.length);
    expect(read).toBeLessThan(10 * reply.length);
    stream.end();
    expect(written).toContain("line 599 ");
  });
});

/** How many characters the string searches, splits and regular expressions read while `work` runs. */
function countCharactersSearched(work: () => void): number {
  const methods = ["split", "indexOf", "lastIndexOf", "includes", "search", "match", "matchAll", "replace", "replaceAll", "trim", "trimEnd", "trimStart"] as const;
  const spies = [
    ...methods.map((method) => vi.spyOn(String.prototype, method)),
    vi.spyOn(RegExp.prototype, "exec"),
    vi.spyOn(RegExp.prototype, "test"),
  ];
  try {
    work();
    return spies.reduce((sum, spy, index) => {
      const searched = index < methods.length ? spy.mock.contexts.map((text) => String(text)) : spy.mock.calls.map((args) => String(args[0]));
      return sum + searched.reduce((total, text) => total + text.length, 0);
    }, 0);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
