import type { Usage } from "../types/index.js";
import { costOfCall, type CallCost, type CostOptions, type ModelPricing } from "../tokens/pricing.js";

/** One model call as the provider billed it (and, optionally, what ctxkit computed about it). */
export interface LedgerCall {
  /** The whole prompt: uncached, cache-read and cache-write tokens together. */
  promptTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  /** The part of `cacheWriteTokens` written with a 1-hour lifetime, when reported (priced at the 1-hour rate). */
  cacheWrite1hTokens?: number;
  outputTokens: number;
  reasoningTokens?: number;
  timeToFirstTokenMs?: number;
  latencyMs?: number;
  /** Tokens of this prompt that repeat the previous call's prompt, when computed (`ctxkit inspect`). */
  reusablePrefixTokens?: number;
}

export interface LedgerEntry extends LedgerCall {
  index: number;
  /** undefined without prices. */
  cost?: CallCost;
}

export interface LedgerTotals {
  calls: number;
  promptTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  /** Cache writes reported as 1-hour writes. */
  cacheWrite1hTokens: number;
  /** Prompt tokens billed at the full input price. */
  uncachedTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** cachedTokens / promptTokens (0 for no prompt tokens). */
  cachedShare: number;
  /** Sum of the computed reusable prefixes, when every call has one. */
  reusablePrefixTokens?: number;
  reusableShare?: number;
  /** The cached tokens perfect prefix reuse would give for the same calls (see `appendOnlyLimitTokens`). */
  appendOnlyLimitTokens: number;
  appendOnlyLimitShare: number;
  /** How far the run is from the limit: limit share − cached share, and the same in tokens. */
  gapToLimitShare: number;
  gapToLimitTokens: number;
  /** Over the calls that had prices. */
  cost?: CallCost;
  meanTimeToFirstTokenMs?: number;
  meanLatencyMs?: number;
}

export interface UsageLedger {
  calls: LedgerEntry[];
  totals: LedgerTotals;
}

/**
 * The append-only limit of a run, in tokens: what a prompt cache could serve if every call were a
 * pure append to the previous one (stable prefix, frozen history, nothing removed). Then call n
 * repeats all of call n−1's prompt, so the limit is Σ_{n≥1} min(prompt(n−1), prompt(n)) — capped
 * at prompt(n) because a call that shrank (a compaction) cannot reuse more than it sends. The first
 * call can reuse nothing. Divided by Σ prompt(n) it is the best cached share the same calls allow.
 * It ignores the provider's granularity (128-token steps, minimums) and the tail, which may change.
 */
export function appendOnlyLimitTokens(promptTokens: readonly number[]): number {
  let limit = 0;
  for (let index = 1; index < promptTokens.length; index += 1) limit += Math.min(promptTokens[index - 1]!, promptTokens[index]!);
  return limit;
}

/** A call's `Usage` (as providers report it) as a ledger call. */
export function toLedgerCall(usage: Usage): LedgerCall {
  const call: LedgerCall = {
    promptTokens: usage.inputTokens,
    cachedTokens: usage.cachedInputTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    outputTokens: usage.outputTokens,
    reasoningTokens: usage.reasoningTokens,
  };
  if (usage.cacheWrite1hTokens !== undefined) call.cacheWrite1hTokens = usage.cacheWrite1hTokens;
  if (usage.timeToFirstTokenMs !== undefined) call.timeToFirstTokenMs = usage.timeToFirstTokenMs;
  if (usage.latencyMs !== undefined) call.latencyMs = usage.latencyMs;
  return call;
}

/**
 * Per-call cost and session totals of a run: cached share, cost, and the distance to the
 * append-only limit. Pure; prices are optional (without them there is no cost).
 */
export function buildUsageLedger(calls: readonly LedgerCall[], pricing?: ModelPricing | ((index: number) => ModelPricing | undefined), options: CostOptions = {}): UsageLedger {
  // One price list for the run, or one per call (a run that switched models is priced by each call's model).
  const pricingOf = typeof pricing === "function" ? pricing : () => pricing;
  const entries: LedgerEntry[] = calls.map((call, index) => {
    const prices = pricingOf(index);
    return prices === undefined ? { ...call, index } : { ...call, index, cost: costOfCall(call, prices, options) };
  });
  const sum = (pick: (call: LedgerCall) => number) => calls.reduce((total, call) => total + pick(call), 0);
  const promptTokens = sum((call) => call.promptTokens);
  const cachedTokens = sum((call) => call.cachedTokens);
  const cacheWriteTokens = sum((call) => call.cacheWriteTokens);
  const limit = appendOnlyLimitTokens(calls.map((call) => call.promptTokens));
  const share = (part: number) => (promptTokens === 0 ? 0 : part / promptTokens);
  const totals: LedgerTotals = {
    calls: calls.length,
    promptTokens,
    cachedTokens,
    cacheWriteTokens,
    cacheWrite1hTokens: sum((call) => Math.min(call.cacheWriteTokens, call.cacheWrite1hTokens ?? 0)),
    uncachedTokens: Math.max(0, promptTokens - cachedTokens - cacheWriteTokens),
    outputTokens: sum((call) => call.outputTokens),
    reasoningTokens: sum((call) => call.reasoningTokens ?? 0),
    cachedShare: share(cachedTokens),
    appendOnlyLimitTokens: limit,
    appendOnlyLimitShare: share(limit),
    gapToLimitShare: share(limit) - share(cachedTokens),
    gapToLimitTokens: limit - cachedTokens,
  };
  if (calls.length > 0 && calls.every((call) => call.reusablePrefixTokens !== undefined)) {
    totals.reusablePrefixTokens = sum((call) => call.reusablePrefixTokens ?? 0);
    totals.reusableShare = share(totals.reusablePrefixTokens);
  }
  const priced = entries.filter((entry) => entry.cost !== undefined);
  if (priced.length > 0) totals.cost = sumCosts(priced.map((entry) => entry.cost!));
  const firstTokenTimes = calls.flatMap((call) => (call.timeToFirstTokenMs === undefined ? [] : [call.timeToFirstTokenMs]));
  const latencies = calls.flatMap((call) => (call.latencyMs === undefined ? [] : [call.latencyMs]));
  if (firstTokenTimes.length > 0) totals.meanTimeToFirstTokenMs = mean(firstTokenTimes);
  if (latencies.length > 0) totals.meanLatencyMs = mean(latencies);
  return { calls: entries, totals };
}

export function sumCosts(costs: readonly CallCost[]): CallCost {
  const total: CallCost = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, total: 0 };
  for (const cost of costs) {
    total.input += cost.input;
    total.cacheRead += cost.cacheRead;
    total.cacheWrite += cost.cacheWrite;
    total.output += cost.output;
    total.total += cost.total;
  }
  return total;
}

const mean = (values: readonly number[]) => values.reduce((total, value) => total + value, 0) / values.length;
