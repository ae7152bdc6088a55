import { createBudget } from "../context/budget/index.js";
import { ConfigError, type Budget, type BudgetApprovalRequest } from "../types/index.js";
import { estimateCost, findModelPricing } from "../session/pricing.js";
import { sessionSpend, type RecordedCall } from "../session/session-spend.js";
import type { CliBudgetSettings } from "./config/resolve-budget.js";
import type { TerminalStyle } from "./terminal-style.js";

export type { CliBudgetSettings };

export interface CliBudgetContext {
  model: string;
  /** The calls the resumed session already made: they count against the limits. */
  calls: readonly RecordedCall[];
  /** Reads the person's answer to an approval question (undefined: no answer could be read). */
  readLine: () => Promise<string | undefined>;
  output: NodeJS.WritableStream;
  style: TerminalStyle;
}

/**
 * The session budget the flags ask for, priced with the catalog, continuing from what the session
 * spent. In approval mode the person is asked on the terminal; no answer (no terminal) declines.
 */
export function createBudgetFromFlags(settings: CliBudgetSettings, context: CliBudgetContext): Budget {
  checkBudgetPricing(settings, context.model);
  const pricing = findModelPricing(context.model);
  const costOf = pricing ? (usage: Parameters<typeof estimateCost>[0]) => estimateCost(usage, pricing) : undefined;
  return createBudget({
    session: { ...(settings.tokens !== undefined ? { tokens: settings.tokens } : {}), ...(settings.costUsd !== undefined ? { costUsd: settings.costUsd } : {}), mode: settings.mode },
    spent: sessionSpend(context.calls, costOf),
    ...(costOf ? { costOf } : {}),
    confirm: (request) => askApproval(request, context),
  });
}

/** A cost limit needs the model's prices; checked before a session is started. */
export function checkBudgetPricing(settings: CliBudgetSettings, model: string): void {
  if (settings.costUsd !== undefined && findModelPricing(model) === undefined) {
    throw new ConfigError("usage_invalid", `--budget-cost needs prices for the model '${model}', which the pricing catalog does not list. Use --budget-tokens instead.`);
  }
}

async function askApproval(request: BudgetApprovalRequest, context: CliBudgetContext): Promise<boolean> {
  const { style, output } = context;
  const lines = request.overruns.map((overrun) => {
    const amount = (value: number) => (overrun.dimension === "tokens" ? `${Math.round(value).toLocaleString("en-US")} tokens` : `$${value.toFixed(4)}`);
    return `  the ${overrun.status.level} would reach up to ${amount(overrun.projected)} of its ${amount(overrun.limit)} budget`;
  });
  output.write(`\n${style.yellow("?")} Go over the budget?\n${lines.join("\n")}\n`);
  while (true) {
    output.write("  [y]es, for the rest of this task / [n]o, stop here: ");
    const answer = await context.readLine();
    if (answer === undefined) {
      output.write("\n  declined (no answer could be read)\n");
      return false;
    }
    if (/^\s*(y|yes)\s*$/i.test(answer)) return true;
    if (/^\s*(n|no)\s*$/i.test(answer)) return false;
  }
}
