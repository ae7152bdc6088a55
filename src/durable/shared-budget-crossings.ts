import type { SettledSpend } from "./shared-budget.js";

/** A share of a shared budget's limit that one call's usage took the scope's spend across. */
export interface SharedBudgetCrossing {
  threshold: number;
  spentTokens: number;
  limitTokens: number;
}

/**
 * The thresholds one call's settlement crossed: its spend before was below `threshold × limit`,
 * after at or above it. Each settlement of a scope is one statement on its locked row, so across
 * every run and worker exactly one call crosses each threshold — the scope warns once per
 * threshold, as one process's budget level does.
 */
export function sharedBudgetCrossings(spend: SettledSpend, thresholds: readonly number[]): SharedBudgetCrossing[] {
  if (!(spend.limitTokens > 0)) return [];
  return [...thresholds]
    .sort((left, right) => left - right)
    .filter((threshold) => spend.spentBefore < threshold * spend.limitTokens && spend.spentAfter >= threshold * spend.limitTokens)
    .map((threshold) => ({ threshold, spentTokens: spend.spentAfter, limitTokens: spend.limitTokens }));
}
