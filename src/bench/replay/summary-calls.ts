import { summaryRequestFor } from "../../context/compression/model-summarizer.js";
import type { Summarizer, SummaryInput } from "../../context/compression/summarizer.js";
import type { ModelPricing } from "../../tokens/pricing.js";
import type { ModelRequest } from "../../types/index.js";
import type { PromptMeter } from "./prompt-meter.js";
import { callCost } from "./replay-cost.js";

/** One summariser call as a model call: what it sent, what the cache served, what it wrote. */
export interface ReplayedSummaryCall {
  /** The replayed call it was made before (1-based). */
  beforeCall: number;
  purpose: SummaryInput["purpose"];
  /** `in-band`: the conversation as last sent plus the instruction; `separate`: a prompt of its own. */
  mode: "separate" | "in-band";
  promptTokens: number;
  reusablePrefixTokens: number;
  uncachedTokens: number;
  outputTokens: number;
  cost: number;
}

/** A summariser that remembers every call, so replay can bill each as the model call it would be. */
export interface SummaryRecorder {
  summarizer: Summarizer;
  /** The calls made since the last `take`, priced against `previous`, the last request replayed. */
  take(previous: ModelRequest | undefined, beforeCall: number): ReplayedSummaryCall[];
}

/**
 * Wraps the replay's shared summariser. Each call is priced from the request a model summariser
 * sends for it (`summaryRequestFor`): a separate call pays its whole prompt at the input price (its
 * system prompt differs from the agent's, so no cache serves it); an in-band call reuses whatever
 * prefix it shares with the previous request, as the agent's own next call would. The summary is
 * the output. The same prices and cache rules as every replayed call, for every policy.
 */
export function createSummaryRecorder(inner: Summarizer, meter: PromptMeter, pricing: ModelPricing): SummaryRecorder {
  let pending: Array<{ input: SummaryInput; summary: string }> = [];
  return {
    summarizer: {
      // Not "deterministic": every policy must treat its summaries as the model calls they are billed as.
      name: `${inner.name} (billed as a model call)`,
      async summarize(input, signal) {
        const summary = await inner.summarize(input, signal);
        pending.push({ input, summary });
        return summary;
      },
    },
    take(previous, beforeCall) {
      const calls = pending.map(({ input, summary }): ReplayedSummaryCall => {
        const request = summaryRequestFor(input);
        const promptTokens = meter.requestTokens(request);
        const reusablePrefixTokens = input.inBand === undefined ? 0 : meter.reusablePrefixTokens(previous, request);
        const uncachedTokens = promptTokens - reusablePrefixTokens;
        const outputTokens = meter.counter.count(summary);
        return {
          beforeCall,
          purpose: input.purpose,
          mode: input.inBand === undefined ? "separate" : "in-band",
          promptTokens,
          reusablePrefixTokens,
          uncachedTokens,
          outputTokens,
          cost: callCost({ uncachedTokens, reusablePrefixTokens, outputTokens }, pricing),
        };
      });
      pending = [];
      return calls;
    },
  };
}
