import { describe, expect, it } from "vitest";
import { removeNoise } from "./remove-noise.js";

describe("removeNoise", () => {
  it("strips ANSI colour and cursor codes", () => {
    expect(removeNoise("\u001b[31mFAIL\u001b[0m tests/a.test.ts \u001b[2K\u001b]0;title\u0007done")).toBe("FAIL tests/a.test.ts done");
  });

  it("keeps only what a terminal shows after carriage-return redraws", () => {
    expect(removeNoise("Downloading 10%\rDownloading 55%\rDownloading 100%\nok")).toBe("Downloading 100%\nok");
    expect(removeNoise("line one\r\nline two\r\n")).toBe("line one\r\nline two\r\n");
  });

  it("collapses long runs of identical lines with a count", () => {
    const text = ["start", ...Array.from({ length: 50 }, () => "warning: deprecated API"), "end"].join("\n");
    expect(removeNoise(text)).toBe("start\nwarning: deprecated API\n[… the line above repeated 49 more times …]\nend");
  });

  it("leaves short repeats and clean text alone", () => {
    const text = "a\na\na\nb\n\n\n\nc";
    expect(removeNoise(text)).toBe(text);
  });
});
