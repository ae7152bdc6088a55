import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { capToolOutput } from "./cap-tool-output.js";

// The same trial's memory half: a slice of a long string keeps the whole original alive, so every
// capped result held on to its uncapped 50 MB in the trajectory and the session for the whole run.
describe("a capped tool result", () => {
  it("does not keep the uncapped original alive", () => {
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const kept: string[] = [];
    collect();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 5; index++) {
      // 10 M characters each (a flat string of ~10 MB), capped to 20,000.
      const original = `${index}`.padEnd(10_000_000, "0123456789abcdef ");
      kept.push(capToolOutput(original, 20_000));
    }
    collect();
    const grownBytes = process.memoryUsage().heapUsed - before;
    // Five kept originals are ≥ 50 MB; the copies are 200 KB (the last original may not be collected yet).
    expect(grownBytes).toBeLessThan(30_000_000);
    expect(kept.every((text) => text.length < 20_300)).toBe(true);
  });
});
