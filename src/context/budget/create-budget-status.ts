import type { Budget } from "../../types/index.js";
import type { ContextPolicy } from "../context-policy.js";
import { formatBudgetLines } from "./format-budget-status.js";

export const budgetStatusOpenTag = "<agent_budget>";
export const budgetStatusCloseTag = "</agent_budget>";

/**
 * The budget's line beside the status bar, as a context policy: what the current task and the
 * session have spent of their limits, in the request's tail (never stored, so it changes freely
 * without touching the cached prefix). Nothing is shown while no level has a limit.
 */
export function createBudgetStatus(budget: Budget): ContextPolicy {
  return {
    name: "budget-status",
    // The line describes the parent's budget in the parent's tail; a child's calls are charged through its own budget level.
    inherit: "never",
    order: 100,
    tail() {
      const lines = formatBudgetLines(budget.current().status());
      if (lines.length === 0) return undefined;
      return [budgetStatusOpenTag, "note: token and cost budgets kept by the harness; calls slow down near a limit and a hard limit stops the task", ...lines, budgetStatusCloseTag].join("\n");
    },
  };
}
