import { isUtf8 } from "node:buffer";

/** Where a file stops being valid UTF-8: its first bad byte (0-based offset) and that byte's line (1-based). */
export interface InvalidUtf8Position {
  byte: number;
  line: number;
}

/**
 * The first byte that does not start a well-formed UTF-8 sequence (an overlong form, a surrogate, a
 * stray continuation byte, a sequence cut short), by the rules TextDecoder follows; undefined when
 * every byte is valid. A decoder with `fatal: false` reads each such sequence as U+FFFD, silently.
 */
export function findInvalidUtf8(bytes: Uint8Array): InvalidUtf8Position | undefined {
  if (isUtf8(bytes)) return undefined;
  // Whole chunks that Node's native check finds valid are skipped, so only the chunk with the bad byte is
  // walked in JavaScript (a 100 MB transcript cut at its end took some 300 ms walked byte by byte).
  let index = 0;
  for (let end = chunkEnd(bytes, 0); end < bytes.length && isUtf8(bytes.subarray(index, end)); end = chunkEnd(bytes, index)) index = end;
  while (index < bytes.length) {
    const length = sequenceLength(bytes, index);
    if (length === 0) return { byte: index, line: lineOf(bytes, index) };
    index += length;
  }
  return undefined;
}

const chunkBytes = 64 * 1024;

/**
 * Where a chunk from `start` ends: `chunkBytes` on, moved back to the start of a character (a byte that is
 * not a continuation byte), so that a valid chunk and the valid bytes before it make a valid prefix.
 */
function chunkEnd(bytes: Uint8Array, start: number): number {
  let end = Math.min(start + chunkBytes, bytes.length);
  // More than three continuation bytes in a row are invalid anyway: that chunk is walked byte by byte.
  for (let back = 0; back < 3 && end < bytes.length && end > start + 1 && (bytes[end]! & 0xc0) === 0x80; back += 1) end -= 1;
  return end;
}

/** The 1-based line of `index`: one more than the `\n` bytes before it (a lone `\r` ends no line, as for the importers). */
function lineOf(bytes: Uint8Array, index: number): number {
  let line = 1;
  for (let newline = bytes.indexOf(0x0a); newline !== -1 && newline < index; newline = bytes.indexOf(0x0a, newline + 1)) line += 1;
  return line;
}

/** How many bytes the well-formed sequence at `index` takes, or 0 when it is not one (Unicode's table 3-7). */
function sequenceLength(bytes: Uint8Array, index: number): number {
  const lead = bytes[index]!;
  if (lead < 0x80) return 1;
  // The second byte's range depends on the lead (it rules out overlongs, surrogates and code points past U+10FFFF).
  let length = 0;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0) low = 0xa0;
    else if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0) low = 0x90;
    else if (lead === 0xf4) high = 0x8f;
  }
  if (length === 0 || index + length > bytes.length) return 0;
  const second = bytes[index + 1]!;
  if (second < low || second > high) return 0;
  for (let offset = 2; offset < length; offset += 1) {
    const next = bytes[index + offset]!;
    if (next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}

/** What is wrong and what was done about it, for a problem (which names the file already). */
export function describeInvalidUtf8(position: InvalidUtf8Position): string {
  return (
    `not valid UTF-8: its first invalid byte is at offset ${position.byte} (line ${position.line}). Invalid bytes were read ` +
    "as U+FFFD (�) and the rest was imported; text and token counts there may differ from what the model saw."
  );
}

/** The note for a transcript read from such a file: where, and that the rest was still read. */
export function invalidUtf8Note(file: string, position: InvalidUtf8Position): string {
  return `${file} is ${describeInvalidUtf8(position)}`;
}
