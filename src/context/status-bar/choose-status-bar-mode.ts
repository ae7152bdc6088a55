import { ConfigError } from "../../types/index.js";

/** The inputs of the seed's cost model, in tokens and price ratios. */
export interface StatusBarModeInputs {
  /** S: tokens of one status message. */
  statusTokens: number;
  /** R: tokens appended to the trajectory between two status updates. */
  appendedTokensPerUpdate: number;
  /** N: status updates still expected (one per model call). */
  expectedUpdates: number;
  /** α: cached-input price ÷ input price (0.1 for Anthropic/DeepSeek/GPT-5, 0.5 for GPT-4o). */
  cachedInputPriceRatio: number;
}

export interface StatusBarModeDecision {
  mode: "append" | "replace";
  inputs: StatusBarModeInputs;
  /** αSN/2: what keeping every status costs per update, in uncached-token equivalents. */
  appendSide: number;
  /** (1−α)R: what re-processing the suffix after a removed status costs per update. */
  replaceSide: number;
  /** One sentence for people: the comparison and the choice. */
  reason: string;
}

/**
 * The seed's model for how to update the status message. Replacing it each call loses the cache of
 * everything after the previous status — the R tokens appended since — so over N updates
 * C_replace ≈ (N−1)(1−α)R. Appending keeps every old status, which each later call reads again at the
 * cached price: C_append ≈ αSN(N−1)/2. Dividing both by (N−1): append when αSN/2 < (1−α)R, else
 * replace (equality replaces: the costs tie and replace keeps no stale statuses around).
 *
 * The model ignores context occupancy and the ambiguity of stale statuses (both favour replace), and
 * Anthropic's 1.25× cache-write premium. It also assumes the R tokens after the old status were cached,
 * which holds for engines that keep generated tokens (vLLM, llama.cpp) but hardly for API prompt
 * caches, where only the assistant's reply would be; `ctxkit bench status-bar --cost` measures both.
 */
export function chooseStatusBarMode(inputs: StatusBarModeInputs): StatusBarModeDecision {
  const { statusTokens: s, appendedTokensPerUpdate: r, expectedUpdates: n, cachedInputPriceRatio: alpha } = inputs;
  for (const [name, value] of Object.entries({ statusTokens: s, appendedTokensPerUpdate: r, expectedUpdates: n })) {
    if (!(Number.isFinite(value) && value >= 0)) throw new ConfigError("option_invalid", `${name} must be a number ≥ 0, got ${value}.`);
  }
  if (!(alpha >= 0 && alpha <= 1)) throw new ConfigError("option_invalid", `cachedInputPriceRatio must be between 0 and 1, got ${alpha}.`);
  const appendSide = (alpha * s * n) / 2;
  const replaceSide = (1 - alpha) * r;
  const mode = appendSide < replaceSide ? "append" : "replace";
  const relation = appendSide < replaceSide ? "<" : appendSide === replaceSide ? "=" : ">";
  const reason =
    `αSN/2 = ${round(alpha)}·${round(s)}·${round(n)}/2 = ${round(appendSide)} ${relation} (1−α)R = ${round(1 - alpha)}·${round(r)} = ${round(replaceSide)}: ` +
    (mode === "append"
      ? "keeping old statuses is cheaper than re-processing the suffix, so append"
      : r === 0
        ? "the cache holds nothing after the status (prompt-only cache), so replacing it costs nothing: replace"
        : "re-processing the short suffix is cheaper than keeping old statuses, so replace");
  return { mode, inputs: { ...inputs }, appendSide, replaceSide, reason };
}

function round(value: number): string {
  return String(Math.round(value * 100) / 100);
}
