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
  let line = 1;
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    const length = sequenceLength(bytes, index);
    if (length === 0) return { byte: index, line };
    if (lead === 0x0a) line += 1;
    index += length;
  }
  return undefined;
}

/** How many bytes the well-formed sequence at `index` takes, or 0 when it is not one (Unicode's table 3-7). */
function sequenceLength(bytes: Uint8Array, index: number): number {
  const lead = bytes[index]!;
  if (lead < 0x80) return 1;
  const [length, low, high] =
    lead >= 0xc2 && lead <= 0xdf ? [2, 0x80, 0xbf]
    : lead === 0xe0 ? [3, 0xa0, 0xbf]
    : lead === 0xed ? [3, 0x80, 0x9f]
    : lead >= 0xe1 && lead <= 0xef ? [3, 0x80, 0xbf]
    : lead === 0xf0 ? [4, 0x90, 0xbf]
    : lead >= 0xf1 && lead <= 0xf3 ? [4, 0x80, 0xbf]
    : lead === 0xf4 ? [4, 0x80, 0x8f]
    : [0, 0, 0];
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
