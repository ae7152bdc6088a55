import { describe, expect, it } from "vitest";
import { HeadTailOutput } from "./head-tail-output.js";

// Issue 30, item 7: a 50 MB result must be cut while it streams in, not gathered and cut at the end.
// Structural, not timed: what is held between chunks never exceeds the budget.
describe("HeadTailOutput", () => {
  it("holds at most its budget between chunks while 50 MB stream through", () => {
    const budget = 30 * 1024;
    const output = new HeadTailOutput(budget);
    const chunk = Buffer.alloc(64 * 1024, "a");
    let most = 0;
    for (let sent = 0; sent < 50 * 1024 * 1024; sent += chunk.length) {
      output.append(chunk);
      most = Math.max(most, output.retainedBytes);
    }
    expect(output.totalBytes).toBe(50 * 1024 * 1024);
    expect(most).toBeLessThanOrEqual(budget);
    expect(output.toString()).toMatch(/^a+\n\[… 52398080 bytes elided from the middle of the output …\]\na+$/);
  });
});
