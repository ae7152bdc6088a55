import { PREVIEW_MARKER } from "./markers.js";

export interface PreviewInput {
  /** The whole result (after noise removal): what the blob holds. */
  content: string;
  tokens: number;
  blobId: string;
  toolName: string;
  /** Characters of head and tail together. */
  previewChars: number;
}

/** Share of the preview given to the head; the tail (errors, summaries, the end of a log) gets the rest. */
const HEAD_SHARE = 0.4;

/**
 * What the model sees of a result over its budget: the size, the blob holding the whole text, how
 * to get any part of it, and the first and last lines. Built once at write time and frozen, so the
 * bytes never change — also after a restart.
 */
export function createToolResultPreview(input: PreviewInput): string {
  const { content, blobId } = input;
  const lines = content.split("\n");
  const headEnd = cutAfter(content, Math.floor(input.previewChars * HEAD_SHARE));
  const tailStart = Math.max(headEnd, cutBefore(content, content.length - (input.previewChars - headEnd)));
  const omittedLines = countLines(content.slice(headEnd, tailStart));
  const howToRead =
    `Get any part with recall {"blob": "${blobId}", "offset": <character offset>}` +
    (input.toolName === "read_file" ? ", or call read_file again with offset and limit." : ".");
  return [
    `${PREVIEW_MARKER} The ${input.toolName} result was too long to show whole: ${input.tokens} tokens, ${content.length} chars, ${lines.length} lines. ` +
      `The full text is stored as ${blobId}. ${howToRead}`,
    content.slice(0, headEnd),
    `[… ${tailStart - headEnd} chars (${omittedLines} lines) omitted: characters ${headEnd}–${tailStart} of ${blobId} …]`,
    content.slice(tailStart),
  ].join("\n");
}

/** The end of the last whole line within `limit` characters (or `limit` when the first line is longer). */
function cutAfter(text: string, limit: number): number {
  if (limit >= text.length) return text.length;
  const newline = text.lastIndexOf("\n", limit);
  return newline > limit / 2 ? newline + 1 : limit;
}

/** The start of the first whole line at or after `start`. */
function cutBefore(text: string, start: number): number {
  if (start <= 0) return 0;
  const newline = text.indexOf("\n", start);
  return newline !== -1 && newline - start < (text.length - start) / 2 ? newline + 1 : start;
}

function countLines(text: string): number {
  let lines = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) lines += 1;
  return lines;
}
