import { open } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { readLineWindow } from "./read-line-window.js";
import { useTempWorkspace } from "./test-support/temp-workspace.js";

const kilobytes64 = 64 * 1024;
const megabyte = 1024 * 1024;

/** The lines of a text as read_file numbers them: split at `\n`, one `\r` before it dropped. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/** What a window should show, worked out from the whole text. */
function expectedWindow(text: string, offset: number, limit: number, maxCharacters: number): string[] {
  return splitLines(text)
    .slice(offset - 1, offset - 1 + limit)
    .map((line, index) => {
      const shown = line.length <= maxCharacters ? line : `${line.slice(0, maxCharacters)}… [line cut: ${line.length} characters]`;
      return `${String(offset + index).padStart(6)}\t${shown}`;
    });
}

/**
 * Builds a text whose lines put one chosen byte of each special line on a chosen read boundary
 * (the reads are 64 KB up to 1 MB, then 1 MB): ASCII filler lines before each push it there.
 */
class BoundaryText {
  private text = "";
  private bytes = 0;
  readonly specialLines: number[] = [];

  /** Adds `line` (a `\n` is appended) so that its byte `byteIndex` lands at `position` of the file. */
  place(line: string, byteIndex: number, position: number): this {
    const gap = position - byteIndex - this.bytes;
    if (gap < 0) throw new Error(`no room before ${position}`);
    if (gap > 0) this.append(`${"f".repeat(gap - 1)}\n`);
    this.append(`${line}\n`);
    this.specialLines.push(splitLines(this.text).length);
    return this;
  }

  append(piece: string): this {
    this.text += piece;
    this.bytes += Buffer.byteLength(piece);
    return this;
  }

  toString(): string {
    return this.text;
  }
}

describe("readLineWindow at the boundaries of its reads", () => {
  const temp = useTempWorkspace();

  async function windowOf(text: string, offset: number, limit: number, maxLineCharacters: number) {
    const file = await temp.write("boundaries.txt", text);
    const handle = await open(file);
    try {
      return await readLineWindow(handle, { offset, limit, maxLineCharacters, maxOutputBytes: 10 * megabyte });
    } finally {
      await handle.close();
    }
  }

  // A CRLF, a 2-byte and a 4-byte character split between two reads, in lines shown whole (100
  // characters) and in lines cut (10), at small-read and big-read boundaries.
  const text = new BoundaryText()
    .place("short crlf\r", 10, kilobytes64 - 1)
    .place(`${"c".repeat(40)}\r`, 40, 2 * kilobytes64 - 1)
    .place("crlf split after the \r", 21, 3 * kilobytes64)
    .place("ab é cd", 4, 4 * kilobytes64)
    .place("a 😀 b", 3, 5 * kilobytes64)
    .place(`${"é".repeat(30)} cut`, 31, 6 * kilobytes64)
    .place(`${"😀".repeat(30)} cut`, 42, 7 * kilobytes64)
    .place("big read crlf\r", 13, megabyte)
    .place(`${"é".repeat(30)}\r`, 41, 2 * megabyte)
    .place(`${"😀".repeat(30)}\r`, 61, 3 * megabyte - 1)
    .append("last line without a newline")
    .toString();

  it("shows and counts every line as splitting the whole text does", async () => {
    const total = splitLines(text).length;
    for (const maxCharacters of [10, 100]) {
      const window = await windowOf(text, 1, total, maxCharacters);
      expect(window.lines, `max ${maxCharacters}`).toEqual(expectedWindow(text, 1, total, maxCharacters));
      expect(window).toMatchObject({ totalLines: total, countComplete: true, cutByBytes: false });
    }
  });

  it("shows the same from an offset at each split line, the lines before it stepped over", async () => {
    const builder = new BoundaryText();
    const special = builder
      .place("x\r", 1, kilobytes64)
      .place("ab é cd", 4, 2 * kilobytes64)
      .place("big read crlf\r", 13, megabyte)
      .append("end\n");
    const source = special.toString();
    for (const offset of [...special.specialLines, ...special.specialLines.map((line) => line - 1)]) {
      for (const maxCharacters of [10, 100]) {
        const window = await windowOf(source, offset, 2, maxCharacters);
        expect(window.lines, `offset ${offset}, max ${maxCharacters}`).toEqual(expectedWindow(source, offset, 2, maxCharacters));
        expect(window.totalLines).toBe(splitLines(source).length);
      }
    }
  });

  it("counts a last line that ends exactly at a read's end, with a newline or without", async () => {
    const withoutNewline = `${"a\n".repeat(kilobytes64 / 2 - 1)}bc`;
    expect(Buffer.byteLength(withoutNewline)).toBe(kilobytes64);
    expect((await windowOf(withoutNewline, 1, 1, 10)).totalLines).toBe(kilobytes64 / 2);
    const withNewline = `${"a\n".repeat(megabyte / 2)}`;
    expect((await windowOf(withNewline, 1, 1, 10)).totalLines).toBe(megabyte / 2);
    const lastShown = await windowOf(withoutNewline, kilobytes64 / 2, 5, 10);
    expect(lastShown.lines).toEqual([`${String(kilobytes64 / 2).padStart(6)}\tbc`]);
  });

  it("counts no line in an empty file, one in a file of one newline, and none past the end", async () => {
    expect(await windowOf("", 1, 5, 10)).toMatchObject({ lines: [], totalLines: 0, countComplete: true });
    expect(await windowOf("\n", 1, 5, 10)).toMatchObject({ lines: ["     1\t"], totalLines: 1, countComplete: true });
    expect(await windowOf("\r\n", 1, 5, 10)).toMatchObject({ lines: ["     1\t"], totalLines: 1 });
    expect(await windowOf("one\ntwo", 9, 5, 10)).toMatchObject({ lines: [], totalLines: 2, countComplete: true });
  });
});
