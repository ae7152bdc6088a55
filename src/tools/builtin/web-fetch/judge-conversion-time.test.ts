import { describe, expect, it } from "vitest";
import { conversionWallClockFactor, judgeConversionTime } from "./judge-conversion-time.js";

describe("judgeConversionTime", () => {
  it("gives a page on a busy machine more wall-clock time while it has used less processor time than its budget", () => {
    // The CLI test of a real 1 MB page was refused at 10 s on a machine loaded by other test runs.
    expect(judgeConversionTime(10_000, 10_000, 2_500)).toEqual({ over: false, checkAgainInMs: 7_500 });
    expect(judgeConversionTime(10_000, 55_000, 9_000)).toEqual({ over: false, checkAgainInMs: 1_000 });
  });

  it("refuses a page once it has used its budget of processor time", () => {
    const verdict = judgeConversionTime(10_000, 10_400, 10_000);
    expect(verdict).toEqual({ over: true, message: expect.stringMatching(/longer than 10 s of processor time, which real pages do not; it looks built to stall/) });
  });

  it("refuses at a wall-clock cap however little processor time the conversion got", () => {
    const verdict = judgeConversionTime(10_000, 10_000 * conversionWallClockFactor, 1_234);
    expect(verdict).toEqual({ over: true, message: expect.stringMatching(/longer than 60 s \(1\.2 s of processor time: the machine is very busy/) });
  });

  it("uses the wall clock where the thread's processor time cannot be read", () => {
    expect(judgeConversionTime(50, 20, undefined)).toEqual({ over: false, checkAgainInMs: 30 });
    expect(judgeConversionTime(50, 50, undefined)).toEqual({ over: true, message: expect.stringMatching(/^Converting the page took longer than 0.05 s, which real pages do not/) });
    expect(judgeConversionTime(50, 50, Number.NaN)).toMatchObject({ over: true });
  });

  it("checks again no sooner than 10 ms", () => {
    expect(judgeConversionTime(10_000, 20_000, 9_999.5)).toEqual({ over: false, checkAgainInMs: 10 });
  });
});
