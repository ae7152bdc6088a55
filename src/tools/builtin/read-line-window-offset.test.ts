import { stat } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createReadFileTool } from "./read-file.js";
import { readWindowOf } from "./test-support/read-window-of.js";
import { runTool, type TempWorkspace, useTempWorkspace } from "./test-support/temp-workspace.js";

const lineCount = 300_000;
const megabyte = 1024 * 1024;

/** Lines "line 1" … "line 300000": some 3.4 MB, past a 1 MB budget long before its last line. */
function writeLines(temp: TempWorkspace): Promise<string> {
  return temp.write("big.log", Array.from({ length: lineCount }, (_, index) => `line ${index + 1}\n`).join(""));
}

// The lines before a far offset were stepped over with no bound: read_file at offset 10,000,000 of a
// multi-GB file read gigabytes. They are stepped over within the same kind of budget as the count after
// the window, and past it no window is shown (one from elsewhere would be a wrong one).
describe("readLineWindow's lines before the offset", () => {
  const temp = useTempWorkspace();

  it("shows the window at an offset the budget reaches", async () => {
    const window = await readWindowOf(await writeLines(temp), { limit: 2, offset: 250_000, countBudget: { maxBytes: 16 * megabyte, maxMilliseconds: 60_000 } });
    expect(window).toMatchObject({ lines: ["250000\tline 250000", "250001\tline 250001"], totalLines: lineCount, countComplete: true });
    expect(window.offsetUnreached).toBeUndefined();
  });

  // What the README says: the step to the offset and the count after the window each have a budget.
  it("counts after the window with a budget of its own, not what the step to the offset left", async () => {
    // Line 150,000 starts 1.69 MB in, the file ends at 3.49 MB: a 2 MB budget reaches the line, and a
    // second one from there reaches the end, which one shared 2 MB bound would not.
    const window = await readWindowOf(await writeLines(temp), { limit: 2, offset: 150_000, countBudget: { maxBytes: 2 * megabyte, maxMilliseconds: 60_000 } });
    expect(window).toMatchObject({ lines: ["150000\tline 150000", "150001\tline 150001"], totalLines: lineCount, countComplete: true });
  });

  it("stops at the byte budget before a far offset and shows no lines", async () => {
    const file = await writeLines(temp);
    const window = await readWindowOf(file, { limit: 2, offset: 250_000, countBudget: { maxBytes: megabyte, maxMilliseconds: 60_000 } });
    expect(window.lines).toEqual([]);
    expect(window.countComplete).toBe(false);
    expect(window.offsetUnreached).toEqual({ bytesRead: expect.any(Number), fileBytes: (await stat(file)).size });
    expect(window.offsetUnreached!.bytesRead).toBeGreaterThanOrEqual(megabyte);
    expect(window.offsetUnreached!.bytesRead).toBeLessThan(2 * megabyte);
    // Lines "line 1" … "line 99999" take 7–11 bytes each: what a megabyte and a bit holds, with the line begun.
    expect(window.totalLines).toBeGreaterThan(90_000);
    expect(window.totalLines).toBeLessThan(250_000);
  });

  it("stops at the time budget once the bytes before the deadline are read", async () => {
    let clock = 0;
    const countBudget = { maxBytes: Number.MAX_SAFE_INTEGER, maxMilliseconds: 100, bytesBeforeDeadline: 0, now: () => (clock += 60) };
    const window = await readWindowOf(await writeLines(temp), { limit: 2, offset: 250_000, countBudget });
    expect(window.lines).toEqual([]);
    expect(window.offsetUnreached).toBeDefined();
  });

  it("says an offset is past the end when the budget runs out at the end of the file", async () => {
    const file = await temp.write("short.txt", "one\ntwo\nthree\n");
    const window = await readWindowOf(file, { limit: 2, offset: 10, countBudget: { maxBytes: 0, maxMilliseconds: 0 } });
    expect(window).toMatchObject({ lines: [], totalLines: 3, countComplete: true });
    expect(window.offsetUnreached).toBeUndefined();
  });

  it("read_file says the line was not reached and how to read it instead", async () => {
    await writeLines(temp);
    const tool = createReadFileTool({ workspace: temp.workspace, countBudget: { maxBytes: megabyte, maxMilliseconds: 60_000 } });
    const result = await runTool(tool, { path: "big.log", offset: 250_000, limit: 50 });
    expect(result.isError).toBe(false);
    expect(result.content).toMatch(
      /^Line 250000 of big\.log was not reached, so no lines are shown: read_file stepped over the first \d+ lines \(1\.\d+ MB of 3\.\d+ MB\) within what one call may read, and line 250000 is further on\. /,
    );
    expect(result.content).toContain("Find the lines you need with grep (it gives their line numbers), or, if you can run shell commands, read them with `tail -n +250000 'big.log' | head -n 50`.");
  });
});
