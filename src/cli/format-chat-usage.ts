import { estimateCost, findModelPricing } from "../session/pricing.js";
import { addUsage, emptyUsage, type Usage } from "../types/index.js";
import { formatUsageLine } from "./format-usage.js";

/** What the chat's sub-agents (calls of the `task` tool) used so far: `run_end`'s `subAgentUsage`, summed. */
export interface ChatSubAgentUsage {
  runs: number;
  usage: Usage;
}

/**
 * The text of chat's `/usage`: the agent's own calls, and when it handed work to sub-agents, their
 * tokens and cost on a labelled line and the total with them — a sub-agent's calls are paid for too,
 * though they never enter this conversation's context.
 */
export function formatChatUsage(ownCalls: readonly Usage[], subAgents: ChatSubAgentUsage, model: string | undefined): string {
  const own = formatUsageLine(ownCalls, ownCalls.length, model);
  if (subAgents.runs === 0) return own;
  const ownUsage = ownCalls.reduce(addUsage, emptyUsage());
  const pricing = model ? findModelPricing(model) : undefined;
  const cost = (usage: Usage) => (pricing ? `cost $${estimateCost(usage, pricing).toFixed(4)}` : "cost unknown");
  return [
    `this agent: ${own}`,
    `sub-agents (task tool): ${subAgents.runs} run${subAgents.runs === 1 ? "" : "s"}, ${tokens(subAgents.usage)}, ${cost(subAgents.usage)}`,
    `total with sub-agents: ${tokens(addUsage(ownUsage, subAgents.usage))}, ${cost(addUsage(ownUsage, subAgents.usage))}`,
  ].join("\n");
}

function tokens(usage: Usage): string {
  const share = usage.inputTokens === 0 ? 0 : (usage.cachedInputTokens / usage.inputTokens) * 100;
  return `${usage.inputTokens.toLocaleString("en-US")} prompt tokens (${share.toFixed(1)}% cached), ${usage.outputTokens.toLocaleString("en-US")} output`;
}
