import { escapeForTerminal } from "../context/escape-for-terminal.js";

export interface StreamedTextEscaper {
  /** The delta escaped (line breaks kept); a zero-width joiner that ends it waits for the next delta. */
  escape(delta: string): string;
  /** What still waits (a joiner the text ended on), escaped; the next delta starts a new text. */
  flush(): string;
}

/**
 * Escapes a streamed text delta by delta as escapeForTerminal does, with what an emoji needs from
 * its neighbours: a zero-width joiner is kept only between two pictographs, and a model's deltas
 * often end or start at one ("👩", "\u200D", "💻" arrive apart). Escaped delta by delta, each such
 * emoji in a reply showed as "👩\u200D💻".
 */
export function createStreamedTextEscaper(): StreamedTextEscaper {
  let before = "";
  let joiner = "";
  return {
    escape(delta) {
      const text = joiner + delta;
      joiner = text.endsWith("\u200d") ? "\u200d" : "";
      const ready = joiner === "" ? text : text.slice(0, -1);
      const escaped = escapeForTerminal(ready, { keepLineBreaks: true, before });
      before = (before + ready).slice(-4);
      return escaped;
    },
    flush() {
      const rest = joiner === "" ? "" : escapeForTerminal(joiner, { keepLineBreaks: true, before });
      before = "";
      joiner = "";
      return rest;
    },
  };
}
