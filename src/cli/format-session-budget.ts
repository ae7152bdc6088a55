import { formatBudgetLines } from "../context/budget/index.js";
import type { LoadedSession } from "../session/loaded-session.js";
import { estimateCost, findModelPricing } from "../tokens/pricing.js";
import { recordedCalls, sessionSpend } from "../session/session-spend.js";
import type { BudgetLevelStatus } from "../types/index.js";

/**
 * `ctxkit sessions show`'s budget lines: the limits of the session's latest run that had a budget,
 * against what was spent — the whole session for the session level (every recorded call, priced
 * with the catalog), the run itself for its task level. Empty when no run had a budget.
 */
export function formatSessionBudget(session: LoadedSession): string[] {
  const run = session.runs.findLast((candidate) => candidate.start.budget !== undefined);
  if (!run) return [];
  const calls = recordedCalls(session);
  const spent = sessionSpend(calls, (usage, model) => {
    const pricing = findModelPricing(model);
    return pricing ? estimateCost(usage, pricing) : 0;
  });
  const runTokens = run.end ? run.end.usage.inputTokens + run.end.usage.outputTokens : undefined;
  const statuses: BudgetLevelStatus[] = run.start.budget!.map((level) => {
    const levelSpent =
      level.level === "session"
        ? spent
        : { tokens: level.spentTokens + (runTokens ?? 0), costUsd: level.spentCostUsd + (level.costUsd === undefined ? 0 : costOfRun(session, run.messageIndex)) };
    const limits = { ...(level.tokens !== undefined ? { tokens: level.tokens } : {}), ...(level.costUsd !== undefined ? { costUsd: level.costUsd } : {}) };
    return { level: level.level, ...(level.label ? { label: level.label } : {}), limits, mode: level.mode, spent: levelSpent, share: 0 };
  });
  const lines = formatBudgetLines(statuses).map((line) => (line.startsWith("task:") ? `last task: ${line.slice("task: ".length)}` : line));
  if (run.end?.stopReason === "budget_exceeded") lines.push(`the last task stopped at its budget: ${run.end.error?.message ?? "budget_exceeded"}`);
  return lines;
}

/** A run's cost from the usage of the requests sent after it started (its task level's spend). */
function costOfRun(session: LoadedSession, messageIndex: number): number {
  let total = 0;
  for (const record of session.usage) {
    const request = session.requests[record.request];
    if (!request || request.messageCount <= messageIndex) continue;
    const pricing = findModelPricing(request.model);
    if (pricing) total += estimateCost(record.usage, pricing);
  }
  return total;
}
