import { findMarkers, type MarkerMatch } from "./find-markers.js";
import { revealHiddenText } from "./reveal-hidden-text.js";

export interface NeutralisedText {
  text: string;
  /** Markers replaced (forged boundaries, harness tags, chat-template tokens). */
  markers: number;
  /** Invisible "tag" characters turned into visible text (hidden instructions some models read). */
  hiddenCharacters: number;
}

// A replacement the grammar never reads as a marker: no `<`, no bracketed template name.
const replacementFor = (marker: MarkerMatch) => `[neutralised marker: ${marker.closing && !marker.name.startsWith("/") ? "/" : ""}${marker.name.replace(/[<>[\]]/g, "")}]`;

// Each pass removes every marker it finds; a replacement cannot combine with its neighbours into a
// new one (it starts with `[`, which is no opener), so one or two passes suffice. The cap is for
// safety; the last resort makes every `<` look-alike visible as text.
const maximumPasses = 8;

/**
 * Makes text from outside safe to place between ctxkit's own markers: everything the marker grammar
 * (`findMarkers`) reads as a boundary, a harness tag or a chat-template token is replaced by a
 * visible `[neutralised marker: …]`, and hidden tag characters are shown as text. Afterwards the
 * grammar finds nothing in the text — the property the forgery fuzzer checks.
 */
export function neutraliseMarkers(input: string): NeutralisedText {
  const revealed = revealHiddenText(input);
  let text = revealed.text;
  let markers = 0;
  for (let pass = 0; pass < maximumPasses; pass += 1) {
    const found = mergeOverlapping(findMarkers(text));
    if (found.length === 0) return { text, markers, hiddenCharacters: revealed.hiddenCharacters };
    markers += found.length;
    let rebuilt = "";
    let cursor = 0;
    for (const marker of found) {
      rebuilt += text.slice(cursor, marker.start) + replacementFor(marker);
      cursor = marker.end;
    }
    text = rebuilt + text.slice(cursor);
  }
  return { text: text.replace(/[<＜﹤‹〈⟨〈˂ᐸ❮⧼≺⋖«❬]|&(?:amp;)*(?:lt|#0*60|#x0*3c);?|%3c|\\+(?:u003c|x3c)/gi, "(lt)"), markers, hiddenCharacters: revealed.hiddenCharacters };
}

function mergeOverlapping(markers: MarkerMatch[]): MarkerMatch[] {
  const merged: MarkerMatch[] = [];
  for (const marker of markers) {
    const previous = merged.at(-1);
    if (previous && marker.start < previous.end) {
      previous.end = Math.max(previous.end, marker.end);
      continue;
    }
    merged.push({ ...marker });
  }
  return merged;
}
