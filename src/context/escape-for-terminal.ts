export interface EscapeForTerminalOptions {
  /** Keep line feeds and tabs (streamed model text, pretty-printed arguments); default false. */
  keepLineBreaks?: boolean;
  /**
   * Keep SGR colour sequences (`ESC [ … m`), for text that ctxkit itself styled before escaping. Only
   * colours pass: cursor moves, title changes and every other control are still escaped.
   */
  keepAnsi?: boolean;
  /**
   * The text shown just before this piece (a stream's earlier delta), read only to tell whether a
   * zero-width joiner at the piece's start joins an emoji ("👩" then "\u200D💻"); never returned.
   */
  before?: string;
}

// eslint-disable-next-line no-control-regex -- colour sequences start with ESC
const colourSequence = /(\u001b\[[0-9;]*m)/;

// C0 and C1 controls (ESC starts terminal commands: colours, cursor moves, title changes), DEL, bidi
// embeddings, overrides, isolates and marks (U+202E makes "docs/‮txt.hs‬-readme.md" display as
// something else), zero-width and other invisible formatting characters, line and paragraph
// separators, and Unicode tag characters (invisible text some models read).
const invisible =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;
const lineBreaks = /[\n\t]/g;

// A zero-width joiner between two pictographs composes one emoji (👩‍💻, 🏳️‍🌈, 👨‍👩‍👧): it hides no text, and
// escaped it broke every such emoji in a reply into "👩\u200D💻". Anywhere else it is escaped. The
// pictograph before it may carry its presentation selector or skin tone (🏳️, 👋🏽), but a selector or
// tone after a letter does not count: "a\uFE0F\u200D🎉" would hide two characters after "a".
const zeroWidthJoiner = "\u200d";
const pictographBefore = /\p{Extended_Pictographic}(?:\ufe0f|\p{Emoji_Modifier})?$/u;
const pictographAfter = /^\p{Extended_Pictographic}/u;

function joinsEmoji(text: string, offset: number, before: string): boolean {
  // Four UTF-16 units hold the longest pictograph-and-modifier before a joiner (two surrogate pairs).
  const preceding = offset >= 4 ? text.slice(offset - 4, offset) : (before + text.slice(0, offset)).slice(-4);
  return pictographBefore.test(preceding) && pictographAfter.test(text.slice(offset + 1, offset + 3));
}

/**
 * Makes model-chosen text safe to show a person: every control, bidi and invisible character is
 * replaced by its `\uXXXX` escape (one per UTF-16 unit, so inside a JSON string it still means the
 * same text), and nothing else changes. Use it on every prompt and status line that shows text a
 * model, a tool or a file chose.
 */
export function escapeForTerminal(text: string, options: EscapeForTerminalOptions = {}): string {
  if (options.keepAnsi === true) {
    const { keepAnsi: _keep, before, ...rest } = options;
    // A colour sequence between two pieces separates them: only the first piece follows `before`.
    return text
      .split(colourSequence)
      .map((part, index) => (index % 2 === 1 ? part : escapeForTerminal(part, index === 0 && before !== undefined ? { ...rest, before } : rest)))
      .join("");
  }
  const before = options.before ?? "";
  const escaped = text.replace(invisible, (match: string, offset: number) => (match === zeroWidthJoiner && joinsEmoji(text, offset, before) ? match : escapeUnits(match)));
  return options.keepLineBreaks === true ? escaped : escaped.replace(lineBreaks, escapeUnits);
}

function escapeUnits(match: string): string {
  let escaped = "";
  for (let index = 0; index < match.length; index += 1) {
    escaped += `\\u${match.charCodeAt(index).toString(16).toUpperCase().padStart(4, "0")}`;
  }
  return escaped;
}
