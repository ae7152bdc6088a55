import type { FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";

/**
 * read_file's line window as it was before its count was bounded (commit 3aa99b3), kept only as the
 * bench's baseline: 64 KB reads to the end of the file, with per-line work for every line after the
 * window and a byte-by-byte character count of a cut line.
 */
export async function readLineWindowBefore(
  handle: FileHandle,
  options: { offset: number; limit: number; maxLineCharacters: number; maxOutputBytes: number },
): Promise<{ lines: string[]; totalLines: number }> {
  const chunkBytes = 64 * 1024;
  // Four bytes per character is the most UTF-8 needs, so this always holds the characters shown.
  const keptBytesPerLine = options.maxLineCharacters * 4 + 4;
  const lines: string[] = [];
  let outputBytes = 0;
  let cutByBytes = false;
  let lineNumber = 1;
  let kept: Buffer[] = [];
  let keptLength = 0;
  let lineBytes = 0;
  let lineUnits = 0;
  let lastByte = -1;
  const wanted = () => lineNumber >= options.offset && lines.length < options.limit && !cutByBytes;
  const takeSegment = (segment: Buffer) => {
    if (segment.length === 0) return;
    lineBytes += segment.length;
    lastByte = segment[segment.length - 1] as number;
    if (!wanted()) return;
    lineUnits += countUtf16Units(segment);
    if (keptLength < keptBytesPerLine) {
      const piece = segment.subarray(0, keptBytesPerLine - keptLength);
      kept.push(Buffer.from(piece));
      keptLength += piece.length;
    }
  };
  const endLine = () => {
    if (wanted()) {
      const hasCarriageReturn = lastByte === 0x0d;
      const numbered = `${String(lineNumber).padStart(6)}\t${shownLine(Buffer.concat(kept), lineBytes, lineUnits, hasCarriageReturn, options.maxLineCharacters)}`;
      const bytes = Buffer.byteLength(numbered) + 1;
      // Always show at least one line, or a tiny cap could never make progress.
      if (lines.length > 0 && outputBytes + bytes > options.maxOutputBytes) cutByBytes = true;
      else {
        lines.push(numbered);
        outputBytes += bytes;
      }
    }
    lineNumber += 1;
    kept = [];
    keptLength = 0;
    lineBytes = 0;
    lineUnits = 0;
    lastByte = -1;
  };
  const chunk = Buffer.alloc(chunkBytes);
  let position = 0;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunkBytes, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = chunk.subarray(0, bytesRead);
    let start = 0;
    for (let newline = data.indexOf(0x0a, start); newline !== -1; newline = data.indexOf(0x0a, start)) {
      takeSegment(data.subarray(start, newline));
      endLine();
      start = newline + 1;
    }
    takeSegment(data.subarray(start));
  }
  // A last line without a newline still counts; an empty file has no lines.
  if (lineBytes > 0) endLine();
  return { lines, totalLines: lineNumber - 1 };
}

function shownLine(kept: Buffer, lineBytes: number, lineUnits: number, hasCarriageReturn: boolean, maxCharacters: number): string {
  const complete = kept.length === lineBytes;
  const body = complete && hasCarriageReturn ? kept.subarray(0, kept.length - 1) : kept;
  // A cut inside a character leaves a partial sequence, which the decoder holds back instead of showing U+FFFD.
  const text = new StringDecoder("utf8").write(body);
  const length = complete ? text.length : lineUnits - (hasCarriageReturn ? 1 : 0);
  if (length <= maxCharacters) return text;
  return `${text.slice(0, maxCharacters)}… [line cut: ${length} characters]`;
}

/** How many UTF-16 code units the UTF-8 bytes decode to (continuation bytes add none, 4-byte leads two). */
function countUtf16Units(bytes: Buffer): number {
  let units = 0;
  for (const byte of bytes) {
    if ((byte & 0xc0) !== 0x80) units += 1;
    if (byte >= 0xf0) units += 1;
  }
  return units;
}
