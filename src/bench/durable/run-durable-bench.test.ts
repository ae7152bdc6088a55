import { describe, expect, it } from "vitest";
import { benchOveruseFactor, budgetPhasePlan } from "./run-durable-bench.js";
import { formatDurableBench } from "./format-durable-bench.js";
import type { DurableBenchResult } from "./durable-bench-result.js";

describe("the durable bench's shared-budget phases", () => {
  it("runs the kill phase only when workers are killed, and always one phase whose model uses more than it reserved", () => {
    expect(budgetPhasePlan(3_000).map((phase) => [phase.killEveryMs, phase.useFactor])).toEqual([[0, 1], [3_000, 1], [0, benchOveruseFactor]]);
    // --kill-every 0: no second no-kill phase identical to the first.
    expect(budgetPhasePlan(0).map((phase) => [phase.killEveryMs, phase.useFactor])).toEqual([[0, 1], [0, benchOveruseFactor]]);
    expect(benchOveruseFactor).toBeGreaterThan(1);
  });

  it("says in the table which phases use at most what they reserved (overrun 0 by construction) and which overuse", () => {
    const phase = (useFactor: number, overrunTokens: number, otherOutcomes: Record<string, number> = {}) => ({ killEveryMs: 0, useFactor, kills: 0, runs: 8, completed: 4, refused: 4, otherOutcomes, limitTokens: 10_000, spentTokens: 10_000 + overrunTokens, billedTokens: 10_000 + overrunTokens, overrunTokens, maxCallTokens: 2_000 });
    const result = {
      runs: 8, completed: 8, lost: 0, resumed: 0, duplicateModelCalls: 0, duplicateSideEffects: 0, budgetOverrunTokens: 700, budgetOverrunBoundTokens: 16_000,
      budgetPhases: [phase(1, 0), phase(1.5, 700, { running: 1, "failed (provider_error)": 2 })], recoverySecondsP95: 0, runMsP50: 0, runMsP95: 0, runsPerMinute: 1, scaling: [], confirmations: { rerun: 0, skip: 0 }, kills: 0,
      settings: { workers: 2, runs: 8, killEveryMs: 0, concurrency: 4, steps: 3, modelLatencyMs: 10, toolLatencyMs: 1, staleAfterMs: 4_000, scalingRuns: 8, budgetRuns: 8 },
      manifest: { node: "v20", platform: "linux-x64", cpus: 2, startedAt: "2026-12-02T09:00:00.000Z" },
    } satisfies DurableBenchResult;
    const table = formatDurableBench(result);
    expect(table).toMatch(/≤ reserved +4 \/ 4 of 8 .*\b0 within/);
    // Every run is accounted for: those neither completed nor refused are named with their count.
    expect(table).toMatch(/1\.5× reserved +4 \/ 4 of 8 \(\+1 running, \+2 failed \(provider_error\)\)/);
    expect(table).toMatch(/1\.5× reserved .*\b700 within/);
    expect(table).toContain("by construction");
    expect(table).toContain("no sub-agents or compaction calls");
  });
});
