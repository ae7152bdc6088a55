import { describe, expect, it } from "vitest";
import { createDurableConfirmations } from "./durable-confirmation.js";
import { durableTestContext } from "./test-support/durable-test-context.js";
import type { PausedCall } from "./durable-run-record.js";
import type { BudgetApprovalRequest } from "../types/index.js";

describe("a durable run's budget question", () => {
  it("says in words what the call could take against which limit (runs show prints it), not the budget's status as JSON", async () => {
    const paused: PausedCall[] = [];
    const context = durableTestContext({
      receive: async () => "rerun",
      tables: { setPaused: async (_id: string, pausedCall: PausedCall | null) => void (pausedCall ? paused.push(pausedCall) : undefined) },
    });
    const request = {
      overruns: [{ status: { level: "session", limits: { tokens: 3_000, mode: "approval" }, mode: "approval", spent: { tokens: 0, costUsd: 0 }, share: 0 }, dimension: "tokens", projected: 6_191, limit: 3_000 }],
      estimate: { tokens: 6_191, costUsd: 0 },
    } as unknown as BudgetApprovalRequest;
    expect(await createDurableConfirmations(context).confirmBudget(request)).toBe(true);
    expect(paused).toEqual([{ tool: "budget", callKey: "budget-0", reason: "budget", why: "a call could take the session to 6,191 tokens of its approval limit of 3,000 tokens" }]);
  });
});
