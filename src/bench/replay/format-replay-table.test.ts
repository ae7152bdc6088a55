import { describe, expect, it } from "vitest";
import { formatPolicyTable } from "./format-replay-table.js";
import type { PolicySummary } from "./replay-summary.js";

const summary = (policy: string, runs: number): PolicySummary => ({
  policy, runs, overflows: 0, rescued: 0, compactions: 0, promptTokens: runs * 1_000, reusablePrefixTokens: 0, uncachedTokens: 0, cost: runs, callCost: runs,
  summaryCalls: 0, summaryPromptTokens: 0, summaryCost: 0, peakTokens: 0, references: 0, referenceRecall: null, lineRecall: null, errors: 0,
});

describe("formatPolicyTable", () => {
  it("leaves out a half no run fell into (one transcript goes to the tune half), not rows of zeros", () => {
    const table = formatPolicyTable([summary("ctxkit", 1)], { tune: [summary("ctxkit", 1)], measure: [summary("ctxkit", 0)] });
    expect(table).toMatch(/ctxkit +tune +1/);
    expect(table).not.toContain("measure");
  });

  it("keeps both halves when both have runs, and an empty table's rows when neither has", () => {
    expect(formatPolicyTable([summary("ctxkit", 3)], { tune: [summary("ctxkit", 2)], measure: [summary("ctxkit", 1)] })).toMatch(/tune[\s\S]*measure/);
    expect(formatPolicyTable([summary("ctxkit", 0)], { tune: [summary("ctxkit", 0)], measure: [summary("ctxkit", 0)] })).toMatch(/tune[\s\S]*measure/);
  });
});
