import { estimateCost, findModelPricing } from "../session/pricing.js";
import type { Usage } from "../types/index.js";

/** "12,345 prompt tokens (80.1% cached), 1,234 output, 5 calls, cost $0.0123" */
export function formatUsageLine(usage: Usage, calls: number, model: string | undefined): string {
  const share = usage.inputTokens === 0 ? 0 : (usage.cachedInputTokens / usage.inputTokens) * 100;
  const pricing = model ? findModelPricing(model) : undefined;
  const cost = pricing ? `cost $${estimateCost(usage, pricing).toFixed(4)}` : `cost unknown (no price for '${model ?? "?"}' in the catalog)`;
  return (
    `${usage.inputTokens.toLocaleString("en-US")} prompt tokens (${share.toFixed(1)}% cached), ` +
    `${usage.outputTokens.toLocaleString("en-US")} output, ${calls} call${calls === 1 ? "" : "s"}, ${cost}`
  );
}
