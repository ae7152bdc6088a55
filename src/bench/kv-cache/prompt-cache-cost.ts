import { applyCacheRule, type CacheOutcome } from "../../session/cache-rules.js";
import { costOfCall, type ModelPricing } from "../../tokens/pricing.js";

/** One model call as the benchmark measured it. */
export interface MeasuredCall {
  promptTokens: number;
  /** Token-level common prefix with the previous call of the same dialogue. */
  reusablePrefixTokens: number;
  /** The part of it made of whole messages (system + tools count as one message). */
  wholeMessageReusableTokens: number;
}

/** What OpenAI's automatic cache serves: the reusable prefix in 128-token steps from 1,024 tokens. */
export function openAICacheOutcome(call: MeasuredCall): CacheOutcome {
  return applyCacheRule("openai-automatic", call);
}

/**
 * What Anthropic's cache serves. It is keyed on content blocks up to a `cache_control` breakpoint,
 * so reuse ends at the last whole message both calls share: a token-level common prefix inside a
 * changed message (a profile block, a flattened history that grew) is not read back. ctxkit's
 * layout puts breakpoints after the system/tools prefix and on the last trajectory message, so
 * every whole shared message was written by an earlier call, and everything new is written now.
 */
export function anthropicCacheOutcome(call: MeasuredCall): CacheOutcome {
  return applyCacheRule("anthropic-explicit", { promptTokens: call.promptTokens, reusablePrefixTokens: call.wholeMessageReusableTokens });
}

/** Prompt-side cost in USD of a call under OpenAI's rule and prices (output is left out). */
export function openAIPromptCost(call: MeasuredCall, pricing: ModelPricing): number {
  return costOfCall({ promptTokens: call.promptTokens, ...openAICacheOutcome(call), outputTokens: 0 }, pricing).total;
}

/** Prompt-side cost in USD under Anthropic's rule with 5-minute cache writes (output is left out). */
export function anthropicPromptCost(call: MeasuredCall, pricing: ModelPricing): number {
  return costOfCall({ promptTokens: call.promptTokens, ...anthropicCacheOutcome(call), outputTokens: 0 }, pricing).total;
}
