import { describe, expect, it } from "vitest";
import type { DurableRunRecord } from "../../durable/durable-run-record.js";
import { sharedBudgetRefusal } from "../../durable/create-durable-provider.js";
import { describeRun } from "./describe-run.js";

const refused = (budgetScope: string): DurableRunRecord => ({
  id: "run-1",
  task: "sum the logs",
  agent: { kind: "cli", input: {} },
  sessionId: "session-1",
  budgetScope,
  status: "failed",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:01.000Z",
  attempts: 1,
  result: {
    stopReason: "error",
    finalText: "",
    iterations: 1,
    inputTokens: 0,
    outputTokens: 0,
    repeatedModelCalls: 0,
    error: { code: "budget_exceeded", message: sharedBudgetRefusal("evals", "it has too little left for a call of up to 2000 tokens") },
  },
});

describe("a run's line for a person", () => {
  it("says how to raise a shared budget with the CLI's flags, not the library's options", () => {
    const line = describeRun(refused("evals"));
    expect(line).toContain("ctxkit submit --budget-scope evals --budget-tokens <n>");
    expect(line).not.toContain("defineBudget");
  });

  it("says a side effect's pause may come from a cancel as well as a crash (a run cancelled during the call asks when resumed)", () => {
    const paused: DurableRunRecord = { ...refused("evals"), status: "needs_confirmation", pausedCall: { tool: "bash", callKey: "tool-2-call_2", reason: "interrupted" } };
    delete (paused as { result?: unknown }).result;
    expect(describeRun(paused)).toContain("waiting: a bash call was interrupted (its worker stopped, or the run was cancelled, during the call) and may or may not have taken effect; ctxkit runs resume run-1 --approve | --decline");
  });
});
