// Hierarchical token and cost budgets (the Shannon chapter's Session → Task → Agent levels, with
// backpressure): pure accounting here; `createBudgetPolicy(budget)` enforces it before every call.
export { createBudget } from "./create-budget.js";
export { createBudgetPolicy, budgetPolicyName, toRunBudgetRecords, type BudgetPolicy, type BudgetPolicyOptions } from "./create-budget-policy.js";
export { backpressureDelay, defaultBackpressureSteps, defaultBudgetThresholds, type BackpressureStep, type BudgetOptions } from "./budget-options.js";
export { createBudgetStatus, budgetStatusOpenTag, budgetStatusCloseTag } from "./create-budget-status.js";
export { formatBudgetLines, formatUsd } from "./format-budget-status.js";
export type {
  Budget,
  BudgetApprovalRequest,
  BudgetCheck,
  BudgetEstimate,
  BudgetLevel,
  BudgetLevelStatus,
  BudgetLimits,
  BudgetMode,
  BudgetOverrun,
  BudgetSpend,
  BudgetThresholdCrossing,
} from "../../types/index.js";
