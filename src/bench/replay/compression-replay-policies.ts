import { compressionPolicyNames, createCompressionPolicy } from "../../context/compression/index.js";
import type { ReplayPolicyFactory } from "./replay-policies.js";

/**
 * ctxkit's compression policies (the seed's six strategies and the layered `ctxkit` default) as
 * replay factories: each run gets a fresh policy with its own in-memory blob store, the replay's
 * token counter and clock, and the replay's shared summariser (by default the deterministic one:
 * replays are offline and reproducible; the comparators get the same one).
 */
export function compressionReplayPolicies(): Record<string, ReplayPolicyFactory> {
  return {
    ...Object.fromEntries(
      compressionPolicyNames.map((name): [string, ReplayPolicyFactory] => [
        name,
        ({ contextWindow, meter, summarizer, cachedPriceRatio }) => createCompressionPolicy(name, { contextWindow, counter: meter.counter, summarizer, cachedPriceRatio }),
      ]),
    ),
    // ctxkit whose full compactions ask in-band when that is cheaper (summaryRequest "auto").
    "ctxkit-in-band": ({ contextWindow, meter, summarizer, cachedPriceRatio }) =>
      createCompressionPolicy("ctxkit", { contextWindow, counter: meter.counter, summarizer, cachedPriceRatio, summaryRequest: "auto" }),
  };
}
