/**
 * Ctrl-R reverse history search for the chat prompt, as in bash: type to find the newest entry
 * that contains the text, Ctrl-R again for an older one, Enter to send it, Tab or an arrow key to
 * edit it, Esc or Ctrl-G to give up. Node's readline has no such search, so it filters the keys
 * before readline sees them.
 */
export interface HistorySearch {
  /** Takes the keys typed; returns what readline should receive instead. */
  filter(keys: string): string;
}

const ctrlR = "\u0012";
const ctrlG = "\u0007";
const escape = "\u001b";
// Ctrl-E then Ctrl-U: readline's end-of-line and delete-to-start, clearing whatever was typed.
const clearLine = "\u0005\u0015";

export function createHistorySearch(options: { history: () => readonly string[]; write: (text: string) => void; redraw: () => void }): HistorySearch {
  let query: string | undefined;
  let skip = 0;
  const found = (): string | undefined => {
    if (query === undefined) return undefined;
    const matches = options.history().filter((entry) => entry.includes(query!));
    return matches[Math.min(skip, Math.max(matches.length - 1, 0))];
  };
  const show = () => options.write(`\r\u001b[K(reverse-i-search)\`${query ?? ""}': ${found() ?? ""}`);
  const finish = (accepted: string | undefined, then: string): string => {
    query = undefined;
    skip = 0;
    options.write("\r\u001b[K");
    options.redraw();
    return accepted === undefined ? then : `${clearLine}${accepted}${then}`;
  };
  return {
    filter(keys) {
      if (query === undefined && !keys.includes(ctrlR)) return keys;
      let out = "";
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index]!;
        if (query === undefined) {
          if (key === ctrlR) {
            query = "";
            skip = 0;
            show();
          } else out += key;
          continue;
        }
        if (key === ctrlR) skip += 1;
        else if (key === "\r" || key === "\n") out += finish(found(), "\r");
        else if (key === ctrlG) out += finish(undefined, "");
        else if (key === escape) {
          // A bare Esc cancels; an escape sequence (an arrow) keeps the match for editing.
          const sequence = keys.slice(index);
          out += sequence.length > 1 ? finish(found(), sequence) : finish(undefined, "");
          break;
        } else if (key === "\t") out += finish(found(), "");
        else if (key === "\u007f" || key === "\b") query = query.slice(0, -1);
        else if (key >= " ") {
          query += key;
          skip = 0;
        }
        if (query !== undefined) show();
      }
      return out;
    },
  };
}
