/**
 * How much of one response, thinking, tool call's arguments or status bar the page is sent: its
 * start and its end. A recorded response of 20 MB took Chromium 33 s to lay out (the page opens on
 * the last call, so the viewer showed nothing until then).
 */
export const shownTextLimits = { head: 100_000, end: 20_000 };

/** The text whole when it fits the limits, else its start and end around a marker naming how much was left out. */
export function boundShownText(text: string, limits = shownTextLimits): string {
  if (text.length <= limits.head + limits.end) return text;
  const left = text.length - limits.head - limits.end;
  return `${text.slice(0, limits.head)}\n[… ${left.toLocaleString("en-US")} characters not shown: ctxkit view shows the start and the end …]\n${text.slice(text.length - limits.end)}`;
}
