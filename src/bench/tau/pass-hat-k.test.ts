import { describe, expect, it } from "vitest";
import { passHatK } from "./pass-hat-k.js";

describe("pass^k", () => {
  it("is the chance that k of a task's trials all succeed, averaged over tasks", () => {
    const tasks = [{ successes: 4, trials: 4 }, { successes: 2, trials: 4 }, { successes: 0, trials: 4 }];
    expect(passHatK(tasks, 1)).toBeCloseTo((1 + 0.5 + 0) / 3);
    expect(passHatK(tasks, 2)).toBeCloseTo((1 + 1 / 6 + 0) / 3);
    expect(passHatK(tasks, 4)).toBeCloseTo(1 / 3);
  });
});
