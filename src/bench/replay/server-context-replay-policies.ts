import type { Message, ToolDefinition } from "../../types/index.js";
import { createAnthropicClearToolUsesPolicy } from "./comparators/anthropic-clear-tool-uses-policy.js";
import { createServerCompactionPolicy } from "./comparators/server-compaction-policy.js";
import { createAnthropicClearThinkingPolicy } from "./comparators/anthropic-clear-thinking-policy.js";
import type { ReplayPolicyFactory, ReplayPolicyOptions } from "./replay-policies.js";

/** Whole-request tokens (system, tools and messages) as the replay's meter counts them. */
function requestCounter({ meter }: ReplayPolicyOptions, prefix: () => { system: { staticText: string; sessionText?: string }; tools: readonly ToolDefinition[] } | undefined) {
  return (messages: readonly Message[]) => {
    const stable = prefix();
    return meter.requestTokens({ system: stable?.system ?? { staticText: "" }, tools: [...(stable?.tools ?? [])], messages: [...messages], cacheBreakpoints: [], settings: {} });
  };
}

/**
 * The providers' server-side context management as replay comparators, modelled from their
 * documented rules (see each policy): what the server would have sent the model, call by call.
 */
export const serverContextReplayPolicies: Record<string, ReplayPolicyFactory> = {
  "anthropic-clear-tool-uses": (options) => withPrefix((prefix) => createAnthropicClearToolUsesPolicy({ contextWindow: options.contextWindow, countMessage: options.meter.messageTokens, countRequest: requestCounter(options, prefix) })),
  "anthropic-clear-tool-inputs": (options) =>
    withPrefix((prefix) => createAnthropicClearToolUsesPolicy({ contextWindow: options.contextWindow, countMessage: options.meter.messageTokens, countRequest: requestCounter(options, prefix), clearToolInputs: true })),
  "anthropic-clear-thinking": () => createAnthropicClearThinkingPolicy(),
  "anthropic-compaction": (options) => withPrefix((prefix) => createServerCompactionPolicy({ vendor: "anthropic", contextWindow: options.contextWindow, summarizer: options.summarizer, countRequest: requestCounter(options, prefix) })),
  "openai-compaction": (options) => withPrefix((prefix) => createServerCompactionPolicy({ vendor: "openai", contextWindow: options.contextWindow, summarizer: options.summarizer, countRequest: requestCounter(options, prefix) })),
};

type Prefix = { system: { staticText: string; sessionText?: string }; tools: readonly ToolDefinition[] };

/** The policy sees the run's stable prefix in `prepareContext`; the counter reads the latest one. */
function withPrefix(build: (prefix: () => Prefix | undefined) => ReturnType<ReplayPolicyFactory>): ReturnType<ReplayPolicyFactory> {
  let current: Prefix | undefined;
  const policy = build(() => current);
  const prepare = policy.prepareContext;
  if (prepare === undefined) return policy;
  return {
    ...policy,
    prepareContext(state) {
      current = state.prefix as Prefix;
      return prepare(state);
    },
  };
}
