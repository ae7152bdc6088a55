import { open, truncate, appendFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createReadFileTool } from "./read-file.js";
import { readLineWindow, type LineWindowOptions } from "./read-line-window.js";
import { readWindowOf } from "./test-support/read-window-of.js";
import { runTool, type TempWorkspace, useTempWorkspace } from "./test-support/temp-workspace.js";

const headLines = 2000;
const holeBytes = 64 * 1024 * 1024;

/**
 * 2,000 short lines (text for the binary check), a 64 MB hole (sparse: no disk, NUL bytes when read,
 * no newline among them) ending in "a\n", then "b\n": 2,002 lines, most of them far past the window.
 */
async function writeSparseFile(temp: TempWorkspace): Promise<string> {
  const head = Array.from({ length: headLines }, (_, index) => `line ${index + 1}\n`).join("");
  const file = await temp.write("big.log", head);
  await truncate(file, Buffer.byteLength(head) + holeBytes);
  await appendFile(file, "a\nb\n");
  return file;
}

// Issue 30: read_file on a 500 MB file took 3–5 s, counting every line in 64 KB reads after the window
// was taken. The count is bounded now, and when the bound is hit the total is said to be a lower bound.
describe("readLineWindow's count after the window", () => {
  const temp = useTempWorkspace();

  it("counts every line past the window when the budget allows", async () => {
    const window = await readWindowOf(await writeSparseFile(temp), {});
    expect(window.lines).toEqual(["     1\tline 1", "     2\tline 2", "     3\tline 3", "     4\tline 4", "     5\tline 5"]);
    expect(window).toMatchObject({ totalLines: headLines + 2, countComplete: true, cutByBytes: false });
  });

  it("stops counting at the byte budget and gives the count as a lower bound", async () => {
    const window = await readWindowOf(await writeSparseFile(temp), { countBudget: { maxBytes: 1024 * 1024, maxMilliseconds: 60_000 } });
    expect(window.lines).toHaveLength(5);
    // The first 64 KB read holds the 2,000 lines and the hole's start, a line begun and not ended.
    expect(window).toMatchObject({ totalLines: headLines + 1, countComplete: false });
  });

  it("stops counting at the time budget", async () => {
    let clock = 0;
    const countBudget = { maxBytes: Number.MAX_SAFE_INTEGER, maxMilliseconds: 100, bytesBeforeDeadline: 0, now: () => (clock += 60) };
    const window = await readWindowOf(await writeSparseFile(temp), { countBudget });
    expect(window.countComplete).toBe(false);
    expect(window.totalLines).toBe(headLines + 1);
  });

  it("counts a file of a few megabytes whole however slow the clock says the reads are", async () => {
    // A paused event loop (a parallel tool, a loaded machine) made a 3 MB file's count "at least":
    // the clock is looked at only past the first 64 MB counted.
    const file = await temp.write("few-megabytes.txt", "0123456789abcdef\n".repeat(3 * 64 * 1024));
    let clock = 0;
    const window = await readWindowOf(file, { countBudget: { maxBytes: 1024 * 1024 * 1024, maxMilliseconds: 1000, now: () => (clock += 3_600_000) } });
    expect(window).toMatchObject({ totalLines: 3 * 64 * 1024, countComplete: true });
  });

  it("calls a count whole when its budget runs out at the end of the file", async () => {
    const file = await temp.write("short.txt", "one\ntwo\nthree\n");
    const window = await readWindowOf(file, { limit: 1, countBudget: { maxBytes: 0, maxMilliseconds: 0 } });
    expect(window).toMatchObject({ lines: ["     1\tone"], totalLines: 3, countComplete: true });
  });

  it("shows a line cut while only its length was counted, with that length as a lower bound", async () => {
    const file = await temp.write("one-line.txt", `${"x".repeat(4 * 1024 * 1024)}\nnext\n`);
    const window = await readWindowOf(file, { maxLineCharacters: 10, countBudget: { maxBytes: 0, maxMilliseconds: 60_000 } });
    expect(window.lines).toEqual([`     1\txxxxxxxxxx… [line cut: at least ${64 * 1024} characters]`]);
    expect(window).toMatchObject({ totalLines: 1, countComplete: false });
  });

  it("counts a long line's characters exactly within the budget, ASCII or not", async () => {
    const file = await temp.write("long.txt", `${"é".repeat(3 * 1024 * 1024)}x\n${"y".repeat(3 * 1024 * 1024)}\n`);
    const window = await readWindowOf(file, { maxLineCharacters: 3 });
    expect(window.lines).toEqual([
      `     1\tééé… [line cut: ${3 * 1024 * 1024 + 1} characters]`,
      `     2\tyyy… [line cut: ${3 * 1024 * 1024} characters]`,
    ]);
    expect(window).toMatchObject({ totalLines: 2, countComplete: true });
  });

  it("shows the same window as splitting the whole text, at any offset, across both read sizes", async () => {
    // Lines of 0 to ~3,000 bytes, some CRLF, over 3 MB: line ends fall on both sides of every read's end.
    const lines = Array.from({ length: 4000 }, (_, index) => `${index + 1}:${"é-".repeat((index * 7919) % 1500)}${index % 5 === 0 ? "\r" : ""}`);
    const file = await temp.write("mixed.txt", `${lines.join("\n")}\n`);
    for (const offset of [1, 777, 1999, 2500, 3998]) {
      const window = await readWindowOf(file, { offset, limit: 3, maxLineCharacters: 10 });
      const expected = lines.slice(offset - 1, offset + 2).map((line, index) => {
        const text = line.endsWith("\r") ? line.slice(0, -1) : line;
        const shown = text.length <= 10 ? text : `${text.slice(0, 10)}… [line cut: ${text.length} characters]`;
        return `${String(offset + index).padStart(6)}\t${shown}`;
      });
      expect(window.lines, `offset ${offset}`).toEqual(expected);
      expect(window).toMatchObject({ totalLines: 4000, countComplete: true });
    }
  });

  it("read_file says 'at least' when the count stopped, and where to continue", async () => {
    await writeSparseFile(temp);
    const tool = createReadFileTool({ workspace: temp.workspace, countBudget: { maxBytes: 0, maxMilliseconds: 60_000 } });
    const result = await runTool(tool, { path: "big.log", limit: 3 });
    expect(result.content.split("\n").at(-1)).toBe(
      `File has at least ${headLines + 1} lines (counting stopped there, the file is large); showing 1-3. Call read_file with offset=4 to continue.`,
    );
  });

  /** The file opened, with `change` run once after its first read: another process writing meanwhile. */
  async function windowWhileChanging(file: string, change: () => Promise<void>, options: Partial<LineWindowOptions>) {
    const handle = await open(file);
    let changed = false;
    const changing = new Proxy(handle, {
      get(target, property) {
        if (property !== "read") return Reflect.get(target, property, target) as unknown;
        return async (...args: Parameters<typeof handle.read>) => {
          const result = await target.read(...args);
          if (!changed) {
            changed = true;
            await change();
          }
          return result;
        };
      },
    });
    try {
      return await readLineWindow(changing, { offset: 1, limit: 5, maxLineCharacters: 2000, maxOutputBytes: 50 * 1024, ...options });
    } finally {
      await handle.close();
    }
  }

  it("counts what is left of a file cut short while it is read, as a whole count", async () => {
    const file = await temp.write("shrinking.txt", `${"x".repeat(99)}\n`.repeat(2000));
    const window = await windowWhileChanging(file, () => truncate(file, 100 * 1000), {});
    expect(window).toMatchObject({ totalLines: 1000, countComplete: true });
  });

  it("gives a lower bound when the file grew past where the budget stopped the count", async () => {
    const file = await temp.write("growing.txt", "one\ntwo\nthree\n");
    const window = await windowWhileChanging(file, () => appendFile(file, "four\n"), { limit: 1, countBudget: { maxBytes: 0, maxMilliseconds: 60_000 } });
    expect(window).toMatchObject({ lines: ["     1\tone"], totalLines: 4, countComplete: false });
  });
});
