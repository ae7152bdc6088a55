/**
 * Ctrl-R reverse history search for the chat prompt, as in bash: type to find the newest entry
 * that contains the text, Ctrl-R again for the next older one, Backspace to shorten the text, Enter
 * to send the match, Tab or an arrow key to edit it, Esc or Ctrl-G to give up (the line typed
 * before the search comes back), Ctrl-C to give up and interrupt. Node's readline has no such
 * search, so it filters the keys before readline sees them.
 */
export interface HistorySearch {
  /** Takes the keys typed; returns what readline should receive instead. */
  filter(keys: string): string;
  /** Whether a search is under way (its prompt is on screen). */
  readonly active: boolean;
}

const ctrlR = "\u0012";
const ctrlG = "\u0007";
const ctrlC = "\u0003";
const escape = "\u001b";
// Ctrl-E then Ctrl-U: readline's end-of-line and delete-to-start, clearing whatever was typed.
const clearLine = "\u0005\u0015";

interface SearchState {
  query: string;
  /** Index in the history (0 = newest) of the entry shown, or undefined before any match. */
  position: number | undefined;
  /** The last search step found nothing (bash's "failed reverse-i-search"); the last match stays shown. */
  failed: boolean;
}

export interface HistorySearchOptions {
  history: () => readonly string[];
  write: (text: string) => void;
  redraw: () => void;
  /**
   * What to type for a line break inside an accepted entry (a multi-line message): readline takes
   * "\n" as Enter, so the caller passes a key it turns into a line break. Default "\n".
   */
  lineBreakKey?: string;
}

export function createHistorySearch(options: HistorySearchOptions): HistorySearch {
  let state: SearchState | undefined;

  /** The first entry at or after `from` (towards older ones) containing the query. */
  const findFrom = (query: string, from: number): number | undefined => {
    const entries = options.history();
    for (let index = from; index < entries.length; index++) if (entries[index]!.includes(query)) return index;
    return undefined;
  };
  const step = (search: SearchState, from: number) => {
    const found = findFrom(search.query, from);
    search.failed = found === undefined;
    if (found !== undefined) search.position = found;
  };
  const shown = (search: SearchState): string | undefined => (search.position === undefined ? undefined : options.history()[search.position]);
  const show = (search: SearchState) =>
    options.write(`\r\u001b[K(${search.failed ? "failed " : ""}reverse-i-search)\`${search.query}': ${shown(search) ?? ""}`);
  const finish = (accepted: string | undefined, then: string): string => {
    state = undefined;
    options.write("\r\u001b[K");
    options.redraw();
    return accepted === undefined ? then : `${clearLine}${accepted.split("\n").join(options.lineBreakKey ?? "\n")}${then}`;
  };

  return {
    get active() {
      return state !== undefined;
    },
    filter(keys) {
      if (state === undefined && !keys.includes(ctrlR)) return keys;
      let out = "";
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index]!;
        if (state === undefined) {
          if (key === ctrlR) {
            state = { query: "", position: undefined, failed: false };
            show(state);
          } else out += key;
          continue;
        }
        const search: SearchState = state;
        if (key === ctrlR) {
          // Again: the next older match, staying on the current one when there is none.
          step(search, search.position === undefined ? 0 : search.position + 1);
        } else if (key === "\r" || key === "\n") {
          out += finish(shown(search), "\r");
          continue;
        } else if (key === ctrlG) {
          out += finish(undefined, "");
          continue;
        } else if (key === ctrlC) {
          out += finish(undefined, ctrlC);
          continue;
        } else if (key === escape) {
          // An escape sequence (an arrow, Home, End) keeps the match for editing; a bare Esc cancels,
          // and keys typed right after it (in the same chunk) go to the line as typed.
          const next = keys[index + 1];
          if (next === "[" || next === "O") {
            out += finish(shown(search), keys.slice(index));
            break;
          }
          out += finish(undefined, "");
          continue;
        } else if (key === "\t") {
          out += finish(shown(search), "");
          continue;
        } else if (key === "\u007f" || key === "\b") {
          search.query = search.query.slice(0, -1);
          if (search.query === "") Object.assign(search, { position: undefined, failed: false });
          else step(search, 0);
        } else if (key >= " ") {
          // Typing narrows the search from the entry shown, as bash does.
          search.query += key;
          step(search, search.position ?? 0);
        }
        show(search);
      }
      return out;
    },
  };
}
