import { createBudget } from "../context/budget/index.js";
import { ConfigError, type Budget, type BudgetApprovalRequest } from "../types/index.js";
import { estimateCost, findModelPricing } from "../tokens/pricing.js";
import { sessionSpend, type RecordedCall } from "../session/session-spend.js";
import type { BudgetConfig } from "./agent-config.js";

export interface BudgetContext {
  model: string;
  /** The calls the resumed session already made: they count against the limits. */
  calls: readonly RecordedCall[];
  /** Asked before a call would go over the limit in `approval` mode (absent: declined). */
  confirm?: (request: BudgetApprovalRequest) => Promise<boolean>;
}

/**
 * The session budget the config asks for, priced with the catalog, continuing from what the
 * session spent. In approval mode `confirm` is asked; without it going over is declined.
 */
export function createBudgetFromConfig(settings: BudgetConfig, context: BudgetContext): Budget {
  checkBudgetPricing(settings, context.model);
  const pricing = findModelPricing(context.model);
  const costOf = pricing ? (usage: Parameters<typeof estimateCost>[0]) => estimateCost(usage, pricing) : undefined;
  const confirm = context.confirm ?? (async () => false);
  return createBudget({
    session: { ...(settings.tokens !== undefined ? { tokens: settings.tokens } : {}), ...(settings.costUsd !== undefined ? { costUsd: settings.costUsd } : {}), mode: settings.mode },
    spent: sessionSpend(context.calls, costOf),
    ...(costOf ? { costOf } : {}),
    confirm,
  });
}

/**
 * A cost limit needs the model's prices; checked before a session is started. `model_unpriced`, as
 * everywhere a model is missing from the catalog: `usage_invalid` is the CLI's code for a command line.
 */
export function checkBudgetPricing(settings: BudgetConfig, model: string): void {
  if (settings.costUsd !== undefined && findModelPricing(model) === undefined) {
    throw new ConfigError("model_unpriced", `budgetCost needs prices for the model '${model}', which the pricing catalog does not list. Use budgetTokens instead, or a model the catalog lists (findModelPricing(model) finds its prices).`);
  }
}
