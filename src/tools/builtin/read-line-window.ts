import { isAscii } from "node:buffer";
import type { FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";

/**
 * How long the reading may go on once all that is shown is known (the window is taken, or its line is
 * cut and only its length is still counted). Without it a 500 MB file took 3–5 s to say how many lines
 * it has; past it the count is a lower bound and says so. The lines before `offset` are stepped over
 * within a budget of their own with the same limits: past it no line is shown (`offsetUnreached`).
 */
export interface CountBudget {
  maxBytes: number;
  maxMilliseconds: number;
  /**
   * Bytes always counted before the clock is looked at (default 64 MB, some 25 ms from the page
   * cache): an event loop paused by other work, or a loaded machine, must not turn a normal file's
   * exact count into "at least".
   */
  bytesBeforeDeadline?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** One second (past the first 64 MB) or 1 GB: a 500 MB file in the page cache is counted whole in a fraction of it. */
export const defaultCountBudget: CountBudget = { maxBytes: 1024 * 1024 * 1024, maxMilliseconds: 1000 };

const defaultBytesBeforeDeadline = 64 * 1024 * 1024;

export interface LineWindowOptions {
  /** 1-based first line to show. */
  offset: number;
  /** Most lines to show. */
  limit: number;
  /** Longer lines are cut (a marker says how long they were). */
  maxLineCharacters: number;
  /** Most bytes of numbered output. */
  maxOutputBytes: number;
  countBudget?: CountBudget;
}

export interface LineWindow {
  /** Numbered lines, ready to show. */
  lines: string[];
  /** All lines of the file, or, when `countComplete` is false, how many there are at least. */
  totalLines: number;
  /** False when the count budget ran out before the end of the file. */
  countComplete: boolean;
  cutByBytes: boolean;
  /**
   * Set when the lines before `offset` took the whole budget and the file goes on: no line is shown
   * (a window from elsewhere would be a wrong one), `totalLines` is how many lines there are at least,
   * and `bytesRead` how far the file was read.
   */
  offsetUnreached?: { bytesRead: number; fileBytes: number };
}

const smallChunkBytes = 64 * 1024;
/** Past the first megabyte, reads are this big: each read is a round trip through the thread pool. */
const bigChunkBytes = 1024 * 1024;

/**
 * Reads the lines `offset`..`offset + limit - 1` of an open file and counts its lines, holding at most
 * one chunk plus the shown part of one line in memory: a file whose single line is bigger than the
 * largest string V8 can make (~512 MB) is read as calmly as a small one. Lines end at `\n`; a `\r`
 * before it is dropped, as readline does with CRLF files. Once what is shown is known, the rest is
 * only counted (newlines, or the cut line's characters), within `countBudget`.
 */
export async function readLineWindow(handle: FileHandle, options: LineWindowOptions): Promise<LineWindow> {
  const budget = options.countBudget ?? defaultCountBudget;
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
  const windowTaken = () => lines.length >= options.limit || cutByBytes;
  const wanted = () => lineNumber >= options.offset && !windowTaken();
  const onlyCounting = () => windowTaken() || (wanted() && keptLength >= keptBytesPerLine);
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
  const showLine = (lengthIsLowerBound: boolean) => {
    const hasCarriageReturn = lastByte === 0x0d && !lengthIsLowerBound;
    const text = shownLine(Buffer.concat(kept), lineBytes, lineUnits, hasCarriageReturn, options.maxLineCharacters, lengthIsLowerBound);
    const numbered = `${String(lineNumber).padStart(6)}\t${text}`;
    const bytes = Buffer.byteLength(numbered) + 1;
    // Always show at least one line, or a tiny cap could never make progress.
    if (lines.length > 0 && outputBytes + bytes > options.maxOutputBytes) cutByBytes = true;
    else {
      lines.push(numbered);
      outputBytes += bytes;
    }
  };
  const endLine = () => {
    if (wanted()) showLine(false);
    lineNumber += 1;
    kept = [];
    keptLength = 0;
    lineBytes = 0;
    lineUnits = 0;
    lastByte = -1;
  };
  const smallChunk = Buffer.allocUnsafe(smallChunkBytes);
  let bigChunk: Buffer | undefined;
  let position = 0;
  // One budget for stepping over the lines before the window, another for counting those after it.
  let skipSpent: ((position: number) => boolean) | undefined;
  let countSpent: ((position: number) => boolean) | undefined;
  for (;;) {
    const chunk = position < bigChunkBytes ? smallChunk : (bigChunk ??= Buffer.allocUnsafe(bigChunkBytes));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = chunk.subarray(0, bytesRead);
    let start = 0;
    // Lines before the window are only stepped over: nothing of them is kept or measured.
    for (let newline = data.indexOf(0x0a, start); newline !== -1 && lineNumber < options.offset; newline = data.indexOf(0x0a, start)) {
      lineNumber += 1;
      lineBytes = 0;
      start = newline + 1;
    }
    for (let newline = data.indexOf(0x0a, start); newline !== -1 && !windowTaken(); newline = data.indexOf(0x0a, start)) {
      takeSegment(data.subarray(start, newline));
      endLine();
      start = newline + 1;
    }
    if (windowTaken()) {
      // Only the number of lines is still wanted: count newlines without building anything per line.
      const counted = countNewlines(data, start);
      lineNumber += counted.count;
      lineBytes = counted.count > 0 ? data.length - counted.after : lineBytes + data.length - start;
    } else takeSegment(data.subarray(start));
    if (lineNumber < options.offset) {
      // Still before the window: a far offset in a multi-GB file must not read it all with no bound.
      skipSpent ??= startBudget(budget, 0);
      if (!skipSpent(position)) continue;
      const fileBytes = (await handle.stat()).size;
      // The budget ran out at the end of the file: the offset is past its end, which the count says.
      if (fileBytes <= position) continue;
      return { lines: [], totalLines: lineNumber, countComplete: false, cutByBytes: false, offsetUnreached: { bytesRead: position, fileBytes } };
    }
    if (!onlyCounting()) continue;
    countSpent ??= startBudget(budget, position);
    if (!countSpent(position)) continue;
    // The budget ran out at the end of the file: the count is whole after all.
    if ((await handle.stat()).size <= position) continue;
    // Otherwise what is known is a lower bound (with the line begun or still to come), and a line
    // being cut is shown with its length so far.
    if (wanted()) showLine(true);
    return { lines, totalLines: lineNumber, countComplete: false, cutByBytes };
  }
  // A last line without a newline still counts; an empty file has no lines.
  if (lineBytes > 0) endLine();
  return { lines, totalLines: lineNumber - 1, countComplete: true, cutByBytes };
}

/**
 * Starts a budget at `startPosition`: the check says whether reading up to a position spent it, by
 * bytes, or by time once `bytesBeforeDeadline` are read (the clock is looked at only from there).
 */
function startBudget(budget: CountBudget, startPosition: number): (position: number) => boolean {
  const now = budget.now ?? (() => performance.now());
  const bytesBeforeDeadline = budget.bytesBeforeDeadline ?? defaultBytesBeforeDeadline;
  const since = now();
  return (position) => {
    const bytes = position - startPosition;
    return bytes >= budget.maxBytes || (bytes >= bytesBeforeDeadline && now() - since >= budget.maxMilliseconds);
  };
}

/** How many `\n` bytes `data` holds from `start`, and where the bytes after the last one begin. */
function countNewlines(data: Buffer, start: number): { count: number; after: number } {
  let count = 0;
  let after = start;
  for (let newline = data.indexOf(0x0a, start); newline !== -1; newline = data.indexOf(0x0a, newline + 1)) {
    count += 1;
    after = newline + 1;
  }
  return { count, after };
}

function shownLine(
  kept: Buffer,
  lineBytes: number,
  lineUnits: number,
  hasCarriageReturn: boolean,
  maxCharacters: number,
  lengthIsLowerBound: boolean,
): string {
  const complete = kept.length === lineBytes && !lengthIsLowerBound;
  const body = complete && hasCarriageReturn ? kept.subarray(0, kept.length - 1) : kept;
  // A cut inside a character leaves a partial sequence, which the decoder holds back instead of showing U+FFFD.
  const text = new StringDecoder("utf8").write(body);
  const length = complete ? text.length : lineUnits - (hasCarriageReturn ? 1 : 0);
  if (length <= maxCharacters && !lengthIsLowerBound) return text;
  return `${text.slice(0, maxCharacters)}… [line cut: ${lengthIsLowerBound ? "at least " : ""}${length} characters]`;
}

/** How many UTF-16 code units the UTF-8 bytes decode to (continuation bytes add none, 4-byte leads two). */
function countUtf16Units(bytes: Buffer): number {
  // The common case, checked natively: a 500 MB line of ASCII took seconds byte by byte.
  if (isAscii(bytes)) return bytes.length;
  let units = 0;
  for (const byte of bytes) {
    if ((byte & 0xc0) !== 0x80) units += 1;
    if (byte >= 0xf0) units += 1;
  }
  return units;
}
