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
  /** How many characters were pushed but not yet written (a block still open); 0 when nothing waits. */
  held(): number;
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
  // The text pushed and not yet rendered, and its last line so far (text after its last line end).
  let held = "";
  let line = "";
  let inFence = false;
  const render = (text: string) => {
    if (text.trim() === "") return;
    const rendered = marked.parse(text, { async: false });
    write(rendered.replace(/\n+$/, "\n"));
  };
  return {
    // Only the delta's own lines are read: held text is never searched again (nor flattened by a
    // search). Reading the whole held text on every delta made a long reply without a blank line
    // quadratic: 340 kB in 24-character deltas took 12 s of CPU before the first character showed.
    push(delta) {
      const pieces = delta.split("\n");
      // Where the held text can be cut: just after the last blank line outside a ``` fence.
      let cut = 0;
      for (let index = 0; index < pieces.length - 1; index += 1) {
        const ended = line + pieces[index]!;
        held += `${pieces[index]!}\n`;
        line = "";
        if (/^\s*(```|~~~)/.test(ended)) {
          inFence = !inFence;
          if (!inFence) cut = held.length;
        } else if (!inFence && ended.trim() === "") cut = held.length;
      }
      line += pieces.at(-1)!;
      held += pieces.at(-1)!;
      if (cut > 0) {
        render(held.slice(0, cut));
        held = held.slice(cut);
      }
    },
    end() {
      render(held);
      held = "";
      line = "";
      inFence = false;
    },
    held: () => held.length,
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
    held: () => 0,
    end() {
      if (lineOpen) write("\n");
      lineOpen = false;
    },
  };
}
