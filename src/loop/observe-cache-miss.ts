import { explainCacheMiss, type CacheCallObservation } from "../context/cache-miss/explain-cache-miss.js";
import type { Provider } from "../providers/provider.js";
import { findModelPricing } from "../tokens/pricing.js";
import type { CacheBreak, CacheMiss, RecordedCacheCall, Usage } from "../types/index.js";

export interface CallForCache {
  usage: Usage;
  sentAt: Date;
  /** The prefix guard's break for this call, if it found one. */
  cacheBreak?: CacheBreak;
  provider: Provider;
  /** The reasoning effort the call went out with, when one was in force. */
  effort?: string;
}

/**
 * The cache's view of a resumed session's last call. A file that did not record the lifetime is
 * judged by the provider's lifetime now (the one the entries would have had with the same settings).
 */
export function observationOfRecordedCall(call: RecordedCacheCall, provider: Pick<Provider, "cacheLifetimeMs">): CacheCallObservation | undefined {
  const sentAtMs = Date.parse(call.at);
  if (!Number.isFinite(sentAtMs)) return undefined;
  const edits = call.usage.serverContext?.edits.map((edit) => edit.type) ?? [];
  const lifetime = call.cacheLifetimeMs === undefined ? provider.cacheLifetimeMs : call.cacheLifetimeMs;
  return {
    sentAtMs,
    model: call.model,
    ...(call.effort === undefined ? {} : { effort: call.effort }),
    reusableTokens: 0,
    promptTokens: Math.max(0, call.usage.inputTokens - (call.usage.serverContext?.compactionInputTokens ?? 0)),
    cachedTokens: call.usage.cachedInputTokens,
    serverEditsBefore: edits.filter((edit) => edit !== "compaction"),
    serverCompacted: edits.includes("compaction"),
    lifetimeMs: lifetime ?? Number.POSITIVE_INFINITY,
  };
}

/**
 * The cache's view of one finished call, and why it missed, given the previous call's view. What the
 * cache could serve is the previous call's whole prompt (the provider's own count); the lifetime
 * is the provider's (`cacheLifetimeMs`), or none when it does not say (local servers keep the
 * prefix until it is evicted, so no gap there reads as an expiry).
 */
export function observeCacheMiss(previous: CacheCallObservation | undefined, call: CallForCache): { observation: CacheCallObservation; miss?: CacheMiss } {
  const { usage, cacheBreak } = call;
  const edits = usage.serverContext?.edits.map((edit) => edit.type) ?? [];
  // A server-side compaction pass billed in this call's counts is not part of its prompt.
  const promptTokens = Math.max(0, usage.inputTokens - (usage.serverContext?.compactionInputTokens ?? 0));
  const observation: CacheCallObservation = {
    sentAtMs: call.sentAt.getTime(),
    model: call.provider.model,
    ...(call.effort === undefined ? {} : { effort: call.effort }),
    reusableTokens: previous === undefined ? 0 : Math.min(previous.promptTokens ?? 0, promptTokens),
    promptTokens,
    cachedTokens: usage.cachedInputTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    ...(usage.cacheWrite1hTokens === undefined ? {} : { cacheWrite1hTokens: usage.cacheWrite1hTokens }),
    ...(cacheBreak === undefined
      ? {}
      : {
          prefixBreak: {
            layer: cacheBreak.layer,
            index: cacheBreak.index,
            firstDifferingToken: cacheBreak.firstDifferingToken,
            declared: cacheBreak.declared,
            ...(cacheBreak.reason === undefined ? {} : { reason: cacheBreak.reason }),
          },
        }),
    serverEditsBefore: edits.filter((edit) => edit !== "compaction"),
    serverCompacted: edits.includes("compaction"),
    lifetimeMs: call.provider.cacheLifetimeMs ?? Number.POSITIVE_INFINITY,
  };
  // The catalog's prices for the provider's model turn the missed tokens into dollars re-billed;
  // a model the catalog does not know gets the tokens alone.
  const miss = explainCacheMiss(previous, observation, findModelPricing(call.provider.model));
  return { observation, ...(miss === undefined ? {} : { miss }) };
}
