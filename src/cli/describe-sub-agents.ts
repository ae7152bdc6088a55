import { escapeForTerminal } from "../context/escape-for-terminal.js";
import { estimateCost, findModelPricing } from "../tokens/pricing.js";
import { sumSubAgentUsage, type SubAgentLink } from "../session/sub-agent-links.js";
import { addUsage, emptyUsage, type Usage } from "../types/index.js";

/**
 * The lines `ctxkit sessions show` prints about a session's sub-agents: the tokens and cost they
 * used, the session's total with them, and one line per child with the id of its own session (a
 * session to open with `ctxkit sessions show` or `ctxkit inspect`). Empty without sub-agents.
 */
export function describeSubAgents(links: readonly SubAgentLink[], ownUsage: readonly Usage[], model: string): string[] {
  if (links.length === 0) return [];
  const children = sumSubAgentUsage(links);
  const own = ownUsage.reduce(addUsage, emptyUsage());
  const childCost = sumCost(links.map((link) => ({ usage: link.run.usage, model: link.run.model })));
  const ownCost = sumCost([{ usage: own, model }]);
  const lines = [
    `sub-agents: ${links.length} run${links.length === 1 ? "" : "s"}, ${tokens(children)}, ${formatCost(childCost)}`,
    `total with sub-agents: ${tokens(addUsage(own, children))}, ${formatCost(childCost === undefined || ownCost === undefined ? undefined : childCost + ownCost)}`,
  ];
  for (const link of links) {
    const { run } = link;
    const label = link.description ? ` "${escapeForTerminal(link.description)}"` : "";
    const session = run.sessionId ? `session ${run.sessionId}` : "no session recorded";
    const cached = run.firstCall && run.firstCall.inputTokens > 0 ? `, first call ${((run.firstCall.cachedInputTokens / run.firstCall.inputTokens) * 100).toFixed(1)}% cached` : "";
    lines.push(`  ↳ ${escapeForTerminal(run.agent)}${label} → ${session} (${escapeForTerminal(run.stopReason)}, ${run.iterations} call${run.iterations === 1 ? "" : "s"}, ${tokens(run.usage)}${cached})`);
  }
  return lines;
}

function tokens(usage: Usage): string {
  const share = usage.inputTokens === 0 ? 0 : (usage.cachedInputTokens / usage.inputTokens) * 100;
  return `${usage.inputTokens.toLocaleString("en-US")} prompt tokens (${share.toFixed(1)}% cached), ${usage.outputTokens.toLocaleString("en-US")} output`;
}

/** Each part priced with its own model's prices; undefined when one has no price. */
function sumCost(parts: readonly { usage: Usage; model: string }[]): number | undefined {
  let total = 0;
  for (const part of parts) {
    const pricing = findModelPricing(part.model);
    if (!pricing) return undefined;
    total += estimateCost(part.usage, pricing);
  }
  return total;
}

function formatCost(cost: number | undefined): string {
  return cost === undefined ? "cost unknown (a model has no price in the catalog)" : `cost $${cost.toFixed(4)}`;
}
