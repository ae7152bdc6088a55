import type { RenderedCallText } from "../inspect/index.js";
import { wholeCharacterOffset } from "./bound-shown-text.js";

/** A stretch of the prompt left out of the page's text: a marker (`start`–`end` in the text sent) stands for `chars` characters. */
export interface OmittedText {
  start: number;
  end: number;
  chars: number;
}

/** A call's prompt text as the page gets it: whole when it is small, else its head, the part around the first divergent token, and its end. */
export interface BoundedPromptText extends RenderedCallText {
  /** The prompt's length in characters before anything was left out. */
  fullLength: number;
  /** The stretches left out, in order (empty when the text is whole). */
  omitted: OmittedText[];
}

/**
 * How much of a prompt the page is sent. Chromium took 69 s to lay out a call whose prompt held a
 * 30 MB tool output (the page froze, and the call's JSON was 31.6 MB). A prompt up to `whole`
 * characters is sent whole (a full 200,000-token context is about 800,000; it draws in about two
 * seconds). A longer one is cut to the parts a person reads: the start (system prompt, tools), the
 * place where the prompt stopped being reusable, and the end (the newest messages). A stretch shorter
 * than `minimumCut` between two of them is kept: a marker for "1,027 characters not shown" hides
 * little and interrupts the reading.
 */
export const promptTextLimits = { whole: 1_000_000, head: 100_000, beforeDivergence: 100_000, afterDivergence: 200_000, end: 50_000, minimumCut: 10_000 };

const marker = (chars: number) => `\n[… ${chars.toLocaleString("en-US")} characters of this prompt not shown: ctxkit view shows its start, where it stops being reusable, and its end …]\n`;

/** The prompt whole up to `limits.whole` characters, else cut to about the windows' sum of its own characters (plus a marker for each cut); offsets are moved to the cut text. */
export function boundPromptText(prompt: RenderedCallText, limits = promptTextLimits): BoundedPromptText {
  const { text } = prompt;
  if (text.length <= limits.whole) return { ...prompt, fullLength: text.length, omitted: [] };
  const focus = prompt.divergentToken?.start ?? prompt.reusableChars;
  const windows = mergeWindows(
    [
      [0, limits.head],
      [focus - limits.beforeDivergence, focus + limits.afterDivergence],
      [text.length - limits.end, text.length],
    ].map(([start, end]) => [wholeCharacterOffset(text, Math.max(0, start!), -1), wholeCharacterOffset(text, Math.min(text.length, end!), 1)] as const),
    limits.minimumCut,
  );
  if (text.length === 0 || (windows.length === 1 && windows[0]![0] === 0 && windows[0]![1] === text.length)) return { ...prompt, fullLength: text.length, omitted: [] };
  let bounded = "";
  const omitted: OmittedText[] = [];
  // Pairs of (offset in the prompt, offset in the cut text) where a kept window starts, for moving offsets.
  const starts: Array<{ from: number; to: number; end: number }> = [];
  let previousEnd = 0;
  for (const [start, end] of windows) {
    if (start > previousEnd) {
      const note = marker(start - previousEnd);
      omitted.push({ start: bounded.length, end: bounded.length + note.length, chars: start - previousEnd });
      bounded += note;
    }
    starts.push({ from: start, to: bounded.length, end });
    bounded += text.slice(start, end);
    previousEnd = end;
  }
  if (previousEnd < text.length) {
    const note = marker(text.length - previousEnd);
    omitted.push({ start: bounded.length, end: bounded.length + note.length, chars: text.length - previousEnd });
    bounded += note;
  }
  // An offset inside a left-out stretch moves to the end of its marker.
  const move = (offset: number): number => {
    let moved = 0;
    for (const window of starts) {
      if (offset < window.from) return moved;
      if (offset <= window.end) return window.to + (offset - window.from);
      moved = window.to + (window.end - window.from);
      const after = omitted.find((gap) => gap.start === moved);
      if (after !== undefined) moved = after.end;
    }
    return moved;
  };
  const result: BoundedPromptText = {
    ...prompt,
    text: bounded,
    reusableChars: move(prompt.reusableChars),
    ranges: prompt.ranges.map((range) => ({ ...range, start: move(range.start), end: move(range.end) })),
    fullLength: text.length,
    omitted,
  };
  if (prompt.divergentToken !== undefined) result.divergentToken = { ...prompt.divergentToken, start: move(prompt.divergentToken.start), end: move(prompt.divergentToken.end) };
  return result;
}

function mergeWindows(windows: ReadonlyArray<readonly [number, number]>, minimumCut: number): Array<[number, number]> {
  const sorted = windows.filter(([start, end]) => end > start).sort((left, right) => left[0] - right[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && start < last[1] + minimumCut) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}
