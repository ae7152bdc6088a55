import { describe, expect, it } from "vitest";
import { askBudgetApproval } from "./ask-budget-approval.js";
import { createTerminalStyle } from "./terminal-style.js";
import type { BudgetApprovalRequest } from "../types/index.js";

function ask(answer: string | undefined, interrupted?: () => boolean) {
  let shown = "";
  const output = { write: (text: string) => ((shown += text), true) } as unknown as NodeJS.WritableStream;
  const request = { overruns: [{ dimension: "tokens", projected: 1_200, limit: 1_000, status: { level: "task" } }] } as unknown as BudgetApprovalRequest;
  const answered = askBudgetApproval(request, { readLine: async () => answer, output, style: createTerminalStyle(false), ...(interrupted ? { interrupted } : {}) });
  return { answered, shown: () => shown };
}

describe("the question whether a run may go over its budget", () => {
  // Ctrl-C at the question in `ctxkit chat` stops the turn; it used to say no answer could be read.
  it("says the turn was stopped when Ctrl-C ended the question, and declines", async () => {
    const { answered, shown } = ask(undefined, () => true);
    expect(await answered).toBe(false);
    expect(shown()).toContain("declined: you stopped the turn");
    expect(shown()).not.toContain("no answer could be read");
  });

  it("declines when no answer can be read, and approves on yes", async () => {
    const closed = ask(undefined);
    expect(await closed.answered).toBe(false);
    expect(closed.shown()).toContain("declined (no answer could be read)");
    expect(await ask("y").answered).toBe(true);
  });
});
