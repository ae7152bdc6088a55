import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { formatBudgetRunReport, runBudgetRun } from "./budget-run.js";

describe("the budget run", () => {
  it("stops every hard budget before it is exceeded, with backpressure delays recorded on the virtual clock", async () => {
    // This repository's own context layer as the code base the scripted agent reads.
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-budget-run-"));
    await cp(resolve("src/context"), join(workspace, "context"), { recursive: true });
    const report = await runBudgetRun({ workspace, limits: [30_000, 100_000] });
    expect(report.files).toBeGreaterThan(20);
    for (const row of report.rows) {
      expect(row.stopReason).toBe("budget_exceeded");
      expect(row.withinLimit).toBe(true);
      expect(row.spentTokens).toBeLessThanOrEqual(row.limit);
      expect(row.refusal).toContain("Stopped before a call");
      // Delays only from 80% of the limit, growing with the share, and all on the virtual clock.
      for (const call of row.perCall) {
        const before = call.spentTokens - call.promptTokens - call.outputTokens;
        if (before / row.limit < 0.8) expect(call.delayMs).toBe(0);
        else expect(call.delayMs).toBeGreaterThan(0);
      }
      expect(row.waitedMs).toBe(row.perCall.at(-1)!.sentAtMs);
    }
    expect(Object.keys(report.rows[1]!.delays).length).toBeGreaterThan(0);
    const table = formatBudgetRunReport(report);
    expect(table).toContain("hard limit");
    expect(table).toMatch(/100,000\s+budget_exceeded/);
    expect(table).toContain("Calls under the 100,000-token limit:");
  });
});
