import { createLazyRequire } from "../types/lazy-require.js";
import type { Marked as MarkedParser } from "marked";
import type { markedTerminal as MarkedTerminal } from "marked-terminal";

const requireFromHere = createLazyRequire(import.meta.url);
let renderer: { Marked: typeof MarkedParser; markedTerminal: typeof MarkedTerminal } | null | undefined;

/**
 * marked-terminal (with its syntax highlighter, ~9 MB) is an optional peer: it would take the
 * library's install over its 40 MB budget. Without it, replies are shown as the Markdown they are.
 * Both it and marked are loaded by the first reply on a terminal (not when the CLI starts: piped
 * output and `ctxkit run` never render Markdown).
 */
function loadRenderer(): typeof renderer {
  if (renderer === undefined) {
    try {
      const { markedTerminal } = requireFromHere("marked-terminal") as { markedTerminal: typeof MarkedTerminal };
      const { Marked } = requireFromHere("marked") as { Marked: typeof MarkedParser };
      renderer = { Marked, markedTerminal };
    } catch {
      renderer = null;
    }
  }
  return renderer;
}

export interface MarkdownStream {
  push(delta: string): void;
  /** Renders what is left (the end of a reply). */
  end(): void;
}

/**
 * Renders a streamed reply as terminal Markdown, one finished block at a time: text is held until a
 * blank line outside a code fence ends a paragraph, list or fence, then that part is rendered and
 * written. A reply is readable as it arrives without re-drawing what was already written.
 * `loaded` is the renderer; null stands for an install without marked-terminal (plain text).
 */
export function createMarkdownStream(write: (text: string) => void, width: number, loaded = loadRenderer()): MarkdownStream {
  if (loaded === null || loaded === undefined) return createPlainStream(write);
  // Each stream has its own parser: marked's global instance would carry the renderer to every user.
  const marked = new loaded.Marked();
  marked.use(loaded.markedTerminal({ width, reflowText: false, tab: 2 }) as Parameters<typeof marked.use>[0]);
  let buffer = "";
  const render = (text: string) => {
    if (text.trim() === "") return;
    const rendered = marked.parse(text, { async: false });
    write(rendered.replace(/\n+$/, "\n"));
  };
  return {
    push(delta) {
      buffer += delta;
      const cut = lastBlockEnd(buffer);
      if (cut > 0) {
        render(buffer.slice(0, cut));
        buffer = buffer.slice(cut);
      }
    },
    end() {
      render(buffer);
      buffer = "";
    },
  };
}

/**
 * The reply as it is, when marked-terminal is not installed. It still ends on a new line, as a
 * rendered reply does: chat redraws its prompt over the current line, which would erase an answer
 * left without one.
 */
function createPlainStream(write: (text: string) => void): MarkdownStream {
  let lineOpen = false;
  return {
    push(delta) {
      if (delta === "") return;
      write(delta);
      lineOpen = !delta.endsWith("\n");
    },
    end() {
      if (lineOpen) write("\n");
      lineOpen = false;
    },
  };
}

/** The offset just after the last blank line that is not inside a ``` fence, or 0. */
function lastBlockEnd(text: string): number {
  let inFence = false;
  let end = 0;
  let offset = 0;
  for (const line of text.split("\n").slice(0, -1)) {
    offset += line.length + 1;
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      if (!inFence) end = offset;
    } else if (!inFence && line.trim() === "") end = offset;
  }
  return end;
}
