import { ConfigError, type BudgetMode } from "../../types/index.js";
import type { BudgetConfig } from "../../config/agent-config.js";
import type { ConfigKey } from "../../config/config-schema.js";
import { settingCandidates, type ResolvedSetting, type SettingInputs } from "./resolve-settings.js";


// A workspace may tighten the user's budget, never loosen it: hard stops, approval asks, soft warns.
const strictness: Record<BudgetMode, number> = { soft: 0, approval: 1, hard: 2 };

/**
 * The budget, or undefined when no limit is set. A flag wins; otherwise the tighter of the
 * workspace's and the user's values (the lower limit, the stricter mode). A mode given as a flag
 * without a limit is a usage error; in a config file it is a preference for when a limit is given.
 */
export function resolveBudget(inputs: SettingInputs, settings: Partial<Record<ConfigKey, ResolvedSetting>>): BudgetConfig | undefined {
  const tightest = <Key extends "budgetTokens" | "budgetCost" | "budgetMode">(key: Key, tighter: (left: never, right: never) => boolean) => {
    const candidates = settingCandidates(key, inputs);
    const chosen = candidates[0]?.origin.source === "flag" ? candidates[0] : candidates.reduce<(typeof candidates)[number] | undefined>((best, candidate) => (best === undefined || tighter(candidate.value as never, best.value as never) ? candidate : best), undefined);
    if (chosen) settings[key] = chosen;
    return chosen;
  };
  const tokens = tightest("budgetTokens", (left: number, right: number) => left < right);
  const costUsd = tightest("budgetCost", (left: number, right: number) => left < right);
  const mode = tightest("budgetMode", (left: BudgetMode, right: BudgetMode) => strictness[left] > strictness[right]);
  if (tokens === undefined && costUsd === undefined) {
    if (mode?.origin.source === "flag") throw new ConfigError("usage_invalid", "--budget-mode needs a limit: add --budget-tokens <n> or --budget-cost <usd>.");
    return undefined;
  }
  if (!mode) settings.budgetMode = { value: "hard", origin: { source: "default" } };
  return { ...(tokens ? { tokens: tokens.value } : {}), ...(costUsd ? { costUsd: costUsd.value } : {}), mode: mode?.value ?? "hard" };
}
