/**
 * How much of one response, thinking, tool call's arguments or status bar the page is sent: whole up
 * to `head + end` characters (above any reply a model's output limit allows), else its start and its
 * end. A recorded response of 20 MB took Chromium 33 s to lay out (the page opens on the last call,
 * so the viewer showed nothing until then); half a megabyte takes under a second.
 */
export const shownTextLimits = { head: 400_000, end: 100_000 };

/** The text whole when it fits the limits, else its start and end around a marker naming how much was left out. */
export function boundShownText(text: string, limits = shownTextLimits): string {
  if (text.length <= limits.head + limits.end) return text;
  const headEnd = wholeCharacterOffset(text, limits.head, 1);
  const endStart = wholeCharacterOffset(text, text.length - limits.end, -1);
  const left = endStart - headEnd;
  return `${text.slice(0, headEnd)}\n[… ${left.toLocaleString("en-US")} characters not shown: ctxkit view shows the start and the end …]\n${text.slice(endStart)}`;
}

/**
 * `offset`, or the offset one further in `direction` when a cut at `offset` would split a surrogate
 * pair (an emoji, a rare CJK character) into two halves that each show as a broken character.
 */
export function wholeCharacterOffset(text: string, offset: number, direction: 1 | -1): number {
  if (offset <= 0 || offset >= text.length) return offset;
  const before = text.charCodeAt(offset - 1);
  const after = text.charCodeAt(offset);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff ? offset + direction : offset;
}
