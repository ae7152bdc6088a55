import { afterEach, describe, expect, it, vi } from "vitest";
import { createEventRenderer } from "./render-events.js";
import { createTerminalStyle } from "./terminal-style.js";
import type { AgentEvent } from "../types/index.js";

afterEach(() => {
  vi.useRealTimers();
});

// Carriage return and erase-line: the spinner's line cleared before a block is written on it.
const clearLine = "\r\u001b[K";
const textDelta = (delta: string) => ({ type: "text_delta", delta }) as AgentEvent;

// The spinner redraws on a timer: fake timers step it without waiting, so nothing here depends on the
// machine's speed.
describe("a chat reply rendered as Markdown on a terminal", () => {
  it("keeps a spinner with the characters received while a paragraph is held, so a stalled model is not a blank screen", () => {
    vi.useFakeTimers();
    let output = "";
    const renderer = createEventRenderer({ write: (text) => (output += text), style: createTerminalStyle(false), spinner: true, markdownWidth: 80 });
    renderer.handle({ type: "request" } as AgentEvent);
    renderer.handle(textDelta("The model starts a paragraph "));
    renderer.handle(textDelta("and then stalls"));
    vi.advanceTimersByTime(200);
    expect(output).toContain("receiving the reply… 44 characters");
    renderer.handle(textDelta(".\n\n"));
    // The finished paragraph is written over the spinner's line, which is cleared first.
    expect(output.endsWith(`${clearLine}The model starts a paragraph and then stalls.\n`)).toBe(true);
    vi.advanceTimersByTime(200);
    expect(output).toMatch(/stalls\.\n$/);
    renderer.stop();
  });

  it("stops the spinner when the reply ends inside a paragraph", () => {
    vi.useFakeTimers();
    let output = "";
    const renderer = createEventRenderer({ write: (text) => (output += text), style: createTerminalStyle(false), spinner: true, markdownWidth: 80 });
    renderer.handle({ type: "request" } as AgentEvent);
    renderer.handle(textDelta("Short answer"));
    vi.advanceTimersByTime(100);
    renderer.handle({ type: "turn_end" } as AgentEvent);
    const ended = output;
    expect(ended.endsWith(`${clearLine}Short answer\n`)).toBe(true);
    vi.advanceTimersByTime(500);
    expect(output).toBe(ended);
  });

  it("shows an emoji whose joiner arrived in a delta of its own whole, piped or as Markdown", () => {
    for (const markdownWidth of [undefined, 80]) {
      let output = "";
      const renderer = createEventRenderer({ write: (text) => (output += text), style: createTerminalStyle(false), spinner: false, ...(markdownWidth === undefined ? {} : { markdownWidth }) });
      for (const delta of ["Coding ", "👩", "\u200d", "💻", " done"]) renderer.handle(textDelta(delta));
      renderer.handle({ type: "turn_end" } as AgentEvent);
      expect(output).toContain("Coding 👩\u200d💻 done");
      renderer.stop();
    }
  });
});
