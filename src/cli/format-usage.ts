import { estimateCost, findModelPricing } from "../session/pricing.js";
import { buildUsageLedger, toLedgerCall } from "../session/usage-ledger.js";
import { addUsage, emptyUsage, type Usage } from "../types/index.js";

/**
 * "12,345 prompt tokens (80.1% cached), 1,234 output, 5 calls, append-only limit 91.0% cached, cost $0.0123".
 * Given each call's usage it also shows the append-only limit: the cached share perfect prefix reuse
 * would give for the same calls, so the gap is what the harness's layout costs.
 */
export function formatUsageLine(usage: Usage | readonly Usage[], calls: number, model: string | undefined): string {
  const perCall = Array.isArray(usage) ? (usage as readonly Usage[]) : undefined;
  const total = perCall === undefined ? (usage as Usage) : perCall.reduce(addUsage, emptyUsage());
  const share = total.inputTokens === 0 ? 0 : (total.cachedInputTokens / total.inputTokens) * 100;
  const limit = perCall === undefined ? "" : `, append-only limit ${(buildUsageLedger(perCall.map(toLedgerCall)).totals.appendOnlyLimitShare * 100).toFixed(1)}% cached`;
  const pricing = model ? findModelPricing(model) : undefined;
  const cost = pricing ? `cost $${estimateCost(total, pricing).toFixed(4)}` : `cost unknown (no price for '${model ?? "?"}' in the catalog)`;
  return (
    `${total.inputTokens.toLocaleString("en-US")} prompt tokens (${share.toFixed(1)}% cached), ` +
    `${total.outputTokens.toLocaleString("en-US")} output, ${calls} call${calls === 1 ? "" : "s"}${limit}, ${cost}`
  );
}
