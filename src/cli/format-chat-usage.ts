import { estimateCost, findModelPricing } from "../tokens/pricing.js";
import { addUsage, emptyUsage, type SubAgentRun, type Usage } from "../types/index.js";
import { formatUsageLine } from "./format-usage.js";

/**
 * The text of chat's `/usage`: the agent's own calls, and when it handed work to sub-agents, their
 * tokens and cost on a labelled line and the total with them — a sub-agent's calls are paid for too,
 * though they never enter this conversation's context.
 */
export function formatChatUsage(ownCalls: readonly Usage[], subAgentRuns: readonly SubAgentRun[], model: string | undefined): string {
  const own = formatUsageLine(ownCalls, ownCalls.length, model);
  if (subAgentRuns.length === 0) return own;
  const ownUsage = ownCalls.reduce(addUsage, emptyUsage());
  const subAgentUsage = subAgentRuns.map((run) => run.usage).reduce(addUsage, emptyUsage());
  // Each run is priced by its own model: a sub-agent definition may use another one than the chat.
  const ownCost = costOf(ownUsage, model);
  const runCosts = subAgentRuns.map((run) => costOf(run.usage, run.model));
  const subAgentCost = runCosts.some((cost) => cost === undefined) ? undefined : runCosts.reduce((sum: number, cost) => sum + cost!, 0);
  const total = ownCost === undefined || subAgentCost === undefined ? undefined : ownCost + subAgentCost;
  return [
    `this agent: ${own}`,
    `sub-agents (task tool): ${subAgentRuns.length} run${subAgentRuns.length === 1 ? "" : "s"}, ${tokens(subAgentUsage)}, ${formatCost(subAgentCost)}`,
    `total with sub-agents: ${tokens(addUsage(ownUsage, subAgentUsage))}, ${formatCost(total)}`,
  ].join("\n");
}

function costOf(usage: Usage, model: string | undefined): number | undefined {
  const pricing = model ? findModelPricing(model) : undefined;
  return pricing ? estimateCost(usage, pricing) : undefined;
}

function formatCost(cost: number | undefined): string {
  return cost === undefined ? "cost unknown" : `cost $${cost.toFixed(4)}`;
}

function tokens(usage: Usage): string {
  const share = usage.inputTokens === 0 ? 0 : (usage.cachedInputTokens / usage.inputTokens) * 100;
  return `${usage.inputTokens.toLocaleString("en-US")} prompt tokens (${share.toFixed(1)}% cached), ${usage.outputTokens.toLocaleString("en-US")} output`;
}
