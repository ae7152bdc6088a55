import type { RenderedPrompt, SegmentOwner } from "./rendered-prompt.js";

/** A span of a rendered prompt's text that one message (or the template's header) produced. */
export interface RenderedTextRange extends SegmentOwner {
  start: number;
  end: number;
  tokens: number;
}

/** A call's prompt as the chat template rendered it, with where the reusable prefix ends in the text. */
export interface RenderedCallText {
  text: string;
  tokens: number;
  /** Characters of `text` covered by the reusable prefix tokens. */
  reusableChars: number;
  /** The first token that could not be reused, as a character range; absent when the whole prompt was reusable. */
  divergentToken?: { start: number; end: number; index: number };
  ranges: RenderedTextRange[];
}

/**
 * Maps a token count (the analysis's reusable prefix) onto the rendered text: segments are summed
 * whole, and only the segment where the prefix ends is decoded, token by token up to that point.
 */
export function toRenderedCallText(rendered: RenderedPrompt, reusableTokens: number, decode: (tokens: readonly number[]) => string): RenderedCallText {
  const ranges: RenderedTextRange[] = [];
  let text = "";
  let tokensBefore = 0;
  let reusableChars: number | undefined;
  let divergentToken: RenderedCallText["divergentToken"];
  rendered.segments.forEach((segment, index) => {
    const start = text.length;
    const count = segment.tokens.length;
    if (reusableChars === undefined && reusableTokens < tokensBefore + count) {
      const local = Math.max(0, reusableTokens - tokensBefore);
      reusableChars = start + prefixLength(segment.text, decode(segment.tokens.slice(0, local)));
      const end = start + prefixLength(segment.text, decode(segment.tokens.slice(0, local + 1)));
      divergentToken = { start: reusableChars, end: Math.max(end, reusableChars + 1), index: tokensBefore + local };
    }
    text += segment.text;
    tokensBefore += count;
    ranges.push({ ...(rendered.owners[index] ?? { part: "header" }), start, end: text.length, tokens: count });
  });
  const result: RenderedCallText = { text, tokens: rendered.total, reusableChars: reusableChars ?? text.length, ranges };
  if (divergentToken !== undefined) result.divergentToken = { ...divergentToken, end: Math.min(divergentToken.end, text.length) };
  return result;
}

/**
 * The length in `text` of a decoded token prefix. Decoding a prefix that ends inside a multi-byte
 * character yields a replacement character; then the common prefix of both strings is used.
 */
function prefixLength(text: string, decoded: string): number {
  if (text.startsWith(decoded)) return decoded.length;
  let length = 0;
  while (length < decoded.length && length < text.length && text[length] === decoded[length]) length++;
  return length;
}
