import { describe, expect, it } from "vitest";
import type { DurableRunRecord } from "../../durable/durable-run-record.js";
import { describeRun } from "./describe-run.js";

const refused = (budgetScope?: string): DurableRunRecord => ({
  id: "run-1",
  task: "sum the logs",
  agent: { kind: "cli", input: {} },
  sessionId: "session-1",
  ...(budgetScope ? { budgetScope } : {}),
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
    error: { code: "budget_exceeded", message: "The shared budget 'evals' cannot cover another model call: it has too little left. Raise the scope's limit (defineBudget), or submit the run with another scope." },
  },
});

describe("a run's line for a person", () => {
  it("adds the CLI's way to raise a shared budget to the library's refusal", () => {
    expect(describeRun(refused("evals"))).toContain("Raise the scope's limit (defineBudget), or submit the run with another scope. (with the CLI: ctxkit submit --budget-scope evals --budget-tokens <n> sets a higher limit)");
  });

  it("adds nothing to a refusal of a run without a shared scope", () => {
    expect(describeRun(refused())).not.toContain("--budget-scope");
  });
});
