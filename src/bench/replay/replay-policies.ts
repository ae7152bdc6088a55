import type { ContextPolicy } from "../../context/context-policy.js";
import type { StablePrefix } from "../../context/stable-prefix.js";
import { type Message, type ToolDefinition, ConfigError } from "../../types/index.js";
import type { Summarizer } from "../../context/compression/summarizer.js";
import { createClaudeCodePolicy } from "./comparators/claude-code-policy.js";
import { createCodexPolicy } from "./comparators/codex-policy.js";
import { createDeepagentsPolicy } from "./comparators/deepagents-policy.js";
import { createGeminiCliPolicy } from "./comparators/gemini-cli-policy.js";
import { createPiPolicy } from "./comparators/pi-policy.js";
import { createNonePolicy } from "./comparators/none-policy.js";
import { createFloorPolicy } from "./comparators/floor-policy.js";
import { createOpencodePolicy } from "./comparators/opencode-policy.js";
import { createSlidingWindowPolicy } from "./comparators/sliding-window-policy.js";
import { compressionReplayPolicies } from "./compression-replay-policies.js";
import { serverContextReplayPolicies } from "./server-context-replay-policies.js";
import type { PromptMeter } from "./prompt-meter.js";

/** What a policy is built from, fresh for every replayed run. */
export interface ReplayPolicyOptions {
  contextWindow: number;
  meter: PromptMeter;
  /** The replay's synthetic clock (policies that reason about cache lifetimes read it). */
  clock: () => Date;
  /** Writes the summaries of every policy that summarises: the same one for all of them. */
  summarizer: Summarizer;
  /** Cached-input price ÷ input price of the replay's pricing (for cache-economic policies). */
  cachedPriceRatio: number;
}

export type ReplayPolicyFactory = (options: ReplayPolicyOptions) => ContextPolicy;

/** The comparators: what other agents do, re-implemented as context policies. */
const comparatorPolicies: Record<string, ReplayPolicyFactory> = {
  none: () => createNonePolicy(),
  "sliding-window": () => createSlidingWindowPolicy({ maxMessages: 20 }),
  "claude-code": ({ contextWindow, meter, summarizer }) =>
    createClaudeCodePolicy({
      contextWindow,
      counter: meter.counter,
      summarizer,
      countTokens: requestTokensOf(meter),
    }),
  opencode: ({ contextWindow, meter, summarizer }) => createOpencodePolicy({ contextWindow, countMessage: meter.messageTokens, summarizer }),
  "gemini-cli": ({ contextWindow, meter, summarizer }) =>
    createGeminiCliPolicy({ contextWindow, countTokens: requestTokensOf(meter), countMessage: meter.messageTokens, counter: meter.counter, summarizer }),
  codex: ({ contextWindow, meter, summarizer }) => createCodexPolicy({ contextWindow, counter: meter.counter, summarizer }),
  pi: ({ contextWindow, meter, summarizer }) => createPiPolicy({ contextWindow, countMessage: meter.messageTokens, summarizer }),
  deepagents: ({ contextWindow, meter, summarizer }) => createDeepagentsPolicy({ contextWindow, countMessage: meter.messageTokens, summarizer }),
  // After the agents: a reference under every policy's cost, not a strategy to choose.
  floor: () => createFloorPolicy(),
  ...serverContextReplayPolicies,
};

/** Replay comparators: what other agents do. `none`, `sliding-window` and `floor` are baselines, not agents. */
export const agentComparatorNames = ["claude-code", "opencode", "gemini-cli", "codex", "pi", "deepagents"] as const;

/** The prefix's own objects (not copies), so the meter's per-run cache of their tokens hits. */
function requestTokensOf(meter: PromptMeter) {
  return (messages: readonly Message[], prefix: StablePrefix) =>
    meter.requestTokens({ system: prefix.system, tools: prefix.tools as ToolDefinition[], messages: messages as Message[], cacheBreakpoints: [], settings: {} });
}

/**
 * Every policy replay can compare, in table order: the comparators, then ctxkit's compression
 * policies (a name both have, `none`, is the same baseline and appears once).
 */
export function replayPolicies(): Record<string, ReplayPolicyFactory> {
  return { ...comparatorPolicies, ...withoutKeys(compressionReplayPolicies(), Object.keys(comparatorPolicies)) };
}

/** Resolves `--policy a,b` or `all` to known names, in the order given. */
export function resolveReplayPolicyNames(selection: string | undefined): string[] {
  const known = Object.keys(replayPolicies());
  if (selection === undefined || selection === "all") return known;
  const names = selection.split(",").map((name) => name.trim()).filter((name) => name !== "");
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new ConfigError("option_invalid", `Unknown replay polic${unknown.length === 1 ? "y" : "ies"} ${unknown.map((name) => `'${name}'`).join(", ") || "(none given)"}. Use 'all' or a comma-separated list of: ${known.join(", ")}.`);
  }
  return [...new Set(names)];
}

function withoutKeys<T>(record: Record<string, T>, keys: readonly string[]): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
}
