import type { BudgetLevelStatus } from "../../types/index.js";
import { formatCount } from "../format-count.js";

/**
 * One line per level that has a limit: `session: 8,200 / 10,000 tokens (82%), $0.0120 / $0.50 (2%), hard`.
 * Levels without limits only count and are left out. Pure.
 */
export function formatBudgetLines(statuses: readonly BudgetLevelStatus[]): string[] {
  return statuses.flatMap((status) => {
    const parts: string[] = [];
    if (status.limits.tokens !== undefined) {
      parts.push(`${formatCount(status.spent.tokens)} / ${formatCount(status.limits.tokens)} tokens (${percent(status.spent.tokens / status.limits.tokens)})`);
    }
    if (status.limits.costUsd !== undefined) {
      parts.push(`${formatUsd(status.spent.costUsd)} / ${formatUsd(status.limits.costUsd)} (${percent(status.spent.costUsd / status.limits.costUsd)})`);
    }
    if (parts.length === 0) return [];
    const name = status.label === undefined ? status.level : `${status.level} ${status.label}`;
    return [`${name}: ${parts.join(", ")}, ${status.mode}`];
  });
}

export function formatUsd(value: number): string {
  return `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`;
}

function percent(share: number): string {
  return `${Math.floor(share * 100)}%`;
}
