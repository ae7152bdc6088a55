import { describe, expect, it } from "vitest";
import { emptyUsage, type Usage } from "../../types/index.js";
import { backpressureDelay, defaultBackpressureSteps } from "./budget-options.js";
import { createBudget } from "./create-budget.js";
import { createBudgetStatus } from "./create-budget-status.js";

const usage = (inputTokens: number, outputTokens: number): Usage => ({ ...emptyUsage(), inputTokens, outputTokens });
const estimate = (promptTokens: number, maxOutputTokens = 0) => ({ promptTokens, maxOutputTokens, model: "m" });

describe("createBudget", () => {
  it("refuses a call whose estimated prompt plus maximum output would pass a hard limit, before anything is spent", () => {
    const budget = createBudget({ session: { tokens: 1000 } }).startTask();
    expect(budget.check(estimate(600, 400)).action).toBe("proceed");
    const check = budget.check(estimate(600, 401));
    expect(check.action).toBe("refuse");
    expect(check.overruns).toEqual([expect.objectContaining({ dimension: "tokens", projected: 1001, limit: 1000, status: expect.objectContaining({ level: "session" }) })]);
  });

  it("counts a charge at its level and every level above it, and checks the call against each", () => {
    const session = createBudget({ session: { tokens: 10_000 }, task: { tokens: 3000 } });
    const task = session.startTask();
    const child = task.child({ tokens: 500 }, "explore");
    child.charge(usage(300, 100), "m");
    expect(child.status().map((level) => [level.level, level.spent.tokens])).toEqual([
      ["agent", 400],
      ["task", 400],
      ["session", 400],
    ]);
    expect(child.check(estimate(101)).action).toBe("refuse");
    expect(task.check(estimate(2600)).action).toBe("proceed");
    expect(task.check(estimate(2601)).overruns[0]!.status.level).toBe("task");
    // A new task starts from zero; the session keeps what earlier tasks spent.
    const next = session.startTask();
    expect(next.status().map((level) => level.spent.tokens)).toEqual([0, 400]);
    expect(session.current()).toBe(next);
  });

  it("warns once per level and threshold as the spend crosses it", () => {
    const budget = createBudget({ session: { tokens: 1000 }, thresholds: [0.5, 0.8] }).startTask();
    expect(budget.charge(usage(400, 0), "m")).toEqual([]);
    expect(budget.charge(usage(150, 0), "m").map((crossing) => crossing.threshold)).toEqual([0.5]);
    expect(budget.charge(usage(10, 0), "m")).toEqual([]);
    expect(budget.charge(usage(300, 0), "m").map((crossing) => crossing.threshold)).toEqual([0.8]);
    expect(budget.charge(usage(50, 0), "m")).toEqual([]);
  });

  it("continues a resumed session from what it spent, without warning again for thresholds already passed", () => {
    const session = createBudget({ session: { tokens: 1000 }, spent: { tokens: 850, costUsd: 0 } });
    const task = session.startTask();
    expect(task.check(estimate(100, 51)).action).toBe("refuse");
    expect(task.charge(usage(10, 0), "m")).toEqual([]);
    expect(task.status().at(-1)!.spent.tokens).toBe(860);
  });

  it("lets soft levels go over with one warning each and asks for approval levels until approved", () => {
    const soft = createBudget({ session: { tokens: 100, mode: "soft" } }).startTask();
    const check = soft.check(estimate(200));
    expect(check.action).toBe("proceed");
    expect(soft.takeSoftOverruns(check.overruns)).toHaveLength(1);
    expect(soft.takeSoftOverruns(soft.check(estimate(300)).overruns)).toHaveLength(0);

    const approval = createBudget({ session: { tokens: 100, mode: "approval" } }).startTask();
    const asked = approval.check(estimate(200));
    expect(asked.action).toBe("ask");
    approval.approve(asked.overruns);
    expect(approval.check(estimate(200)).action).toBe("proceed");
  });

  it("prices cost limits with costOf, a prompt at its dearest price", () => {
    const seen: Usage[] = [];
    const budget = createBudget({
      session: { costUsd: 0.01 },
      costOf: (callUsage) => {
        seen.push(callUsage);
        return (callUsage.inputTokens + callUsage.outputTokens) / 100_000;
      },
    }).startTask();
    budget.charge(usage(500, 0), "m");
    expect(budget.status()[1]!.spent.costUsd).toBeCloseTo(0.005);
    expect(budget.check(estimate(400, 100)).action).toBe("proceed");
    expect(budget.check(estimate(400, 101)).overruns[0]!.dimension).toBe("cost");
    expect(seen.at(-1)).toMatchObject({ inputTokens: 400, cachedInputTokens: 0, cacheWriteTokens: 400, outputTokens: 101 });
  });

  it("rejects limits it cannot enforce", () => {
    expect(() => createBudget({ session: { costUsd: 1 } })).toThrow(/costOf/);
    expect(() => createBudget({ task: { tokens: -1 } })).toThrow(/positive/);
    expect(() => createBudget({ session: { tokens: 10, mode: "strict" as never } })).toThrow(/"hard", "soft" or "approval"/);
  });

  it("slows calls down by the tightest level's share, with the Shannon steps", () => {
    expect([0.5, 0.8, 0.849, 0.85, 0.9, 0.95, 1.2].map((share) => backpressureDelay(share, defaultBackpressureSteps))).toEqual([0, 50, 50, 300, 750, 1500, 1500]);
    const session = createBudget({ session: { tokens: 10_000 }, task: { tokens: 1000 } });
    const task = session.startTask();
    task.charge(usage(900, 0), "m");
    expect(task.check(estimate(0))).toMatchObject({ delayMs: 750, share: 0.9 });
    expect(createBudget({ session: { tokens: 100 }, backpressure: false, spent: { tokens: 99, costUsd: 0 } }).check(estimate(0)).delayMs).toBe(0);
  });

  it("shows the levels with limits in the request's tail", () => {
    const session = createBudget({ session: { tokens: 10_000, mode: "soft" } });
    const status = createBudgetStatus(session);
    session.startTask().charge(usage(8200, 0), "m");
    expect(status.tail!({ trajectory: [], iteration: 0, now: new Date(0) })).toBe(
      "<agent_budget>\nnote: token and cost budgets kept by the harness; calls slow down near a limit and a hard limit stops the task\nsession: 8,200 / 10,000 tokens (82%), soft\n</agent_budget>",
    );
    expect(createBudgetStatus(createBudget()).tail!({ trajectory: [], iteration: 0, now: new Date(0) })).toBeUndefined();
  });
});
