import { getTokenCounter } from "../../tokens/get-token-counter.js";
import type { TokenCounter } from "../../tokens/token-counter.js";
import { ConfigError, type Tool } from "../../types/index.js";

/**
 * Which tools are kept out of `tools` and found with `tool_search`: `"off"` (only those marked
 * `deferred: true`), `"all"` (every tool of the caller), `"auto"` (every tool of the caller when
 * their definitions would take more than `share` of the context window; otherwise only marked ones).
 */
export type DeferToolsMode = "auto" | "all" | "off";

export interface DeferToolsSettings {
  mode: DeferToolsMode;
  /** The model's context window in tokens, for `"auto"` (default 128 000). */
  contextWindow?: number;
  /** Share of the window the definitions may take before `"auto"` defers them (default 0.1). */
  share?: number;
  /** Counts the definitions' tokens (default: the calibrated estimator; pass an exact counter when the tokenizer is known). */
  counter?: TokenCounter;
}

export interface DeferToolsDecision {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  tools: Tool<any>[];
  /** Tokens of all the caller's definitions, as counted for the decision. */
  definitionTokens: number;
  /** The token count above which `"auto"` defers. */
  thresholdTokens: number;
  deferred: boolean;
}

/**
 * Marks tools `deferred` by the mode. Tools the caller marked stay deferred whatever the mode. The
 * definitions are counted as they are sent (name, description, parameters as JSON) — an estimate of
 * what the provider's tool rendering costs, close enough for a 10 % rule.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see DeferToolsDecision.tools
export function applyDeferTools(tools: readonly Tool<any>[], settings: DeferToolsMode | DeferToolsSettings): DeferToolsDecision {
  const resolved: DeferToolsSettings = typeof settings === "string" ? { mode: settings } : settings;
  if (!["auto", "all", "off"].includes(resolved.mode)) {
    throw new ConfigError("option_invalid", `deferTools must be "auto", "all" or "off", got ${JSON.stringify(resolved.mode)}.`);
  }
  const window = resolved.contextWindow ?? 128_000;
  const share = resolved.share ?? 0.1;
  if (!(window > 0) || !(share > 0 && share <= 1)) {
    throw new ConfigError("option_invalid", `deferTools needs a positive contextWindow and a share in (0, 1], got ${window} and ${share}.`);
  }
  const counter = resolved.counter ?? getTokenCounter("estimate");
  const definitionTokens = tools.reduce((sum, tool) => sum + counter.count(JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters })), 0);
  const thresholdTokens = Math.floor(window * share);
  const deferAll = resolved.mode === "all" || (resolved.mode === "auto" && definitionTokens > thresholdTokens);
  return {
    tools: deferAll ? tools.map((tool) => (tool.deferred === true ? tool : { ...tool, deferred: true })) : [...tools],
    definitionTokens,
    thresholdTokens,
    deferred: deferAll,
  };
}
