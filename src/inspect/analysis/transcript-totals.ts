import { applyCacheRule, toCacheRuleName } from "../../session/cache-rules.js";
import type { NamedPricing } from "../../session/load-pricing.js";
import type { CallCost, CostOptions } from "../../tokens/pricing.js";
import { appendOnlyLimitTokens, buildUsageLedger, type LedgerCall } from "../../session/usage-ledger.js";
import type { ImportedCall } from "../imported-transcript.js";
import type { AnalyzedCall, PriceUse, TranscriptCost, TranscriptTotals } from "./analyzed-transcript.js";
import { isAllZero, usableReportedUsage } from "./usable-reported-usage.js";

/** Per call, what totals need besides the analysis: the tail's tokens and the response's. */
export interface CallExtras {
  tailTokens: number;
  /** Tokens of the recorded response, for output cost when the provider's count is not recorded (counted only then). */
  responseTokens: () => number;
}

/** Per call: its model (the call's own, else the transcript's) and that model's prices, if any. */
export interface CallPricing {
  model(index: number): string | undefined;
  prices(index: number): NamedPricing | undefined;
}

/**
 * Totals of an analysed transcript: tokens, reusable share against the append-only limit, what the
 * provider reported, and the cost — each call at its own model's prices, with reported cached
 * tokens where recorded, else the price list's cache rule applied to the computed reusable prefix.
 */
export function computeTranscriptTotals(
  imported: readonly ImportedCall[],
  calls: readonly AnalyzedCall[],
  extras: readonly CallExtras[],
  pricing: CallPricing,
  options: CostOptions = {},
): { totals: TranscriptTotals; callCosts?: Array<CallCost | undefined> } {
  const sum = (pick: (call: AnalyzedCall) => number) => calls.reduce((total, call) => total + pick(call), 0);
  const promptTokens = sum((call) => call.promptTokens);
  const reusablePrefixTokens = sum((call) => call.reusablePrefixTokens);
  const limit = appendOnlyLimitTokens(calls.map((call) => call.promptTokens));
  const reportedPrompt = sumReported(calls.map((call) => call.reportedPromptTokens));
  const reportedCached = sumReported(calls.map((call) => call.reportedCachedTokens));
  const breaks = calls.flatMap((call) => call.breaks);
  const cost = calls.some((_call, index) => pricing.prices(index) !== undefined) ? costOf(imported, calls, extras, pricing, options) : undefined;
  const totals: TranscriptTotals = {
    calls: calls.length,
    promptTokens,
    reusablePrefixTokens,
    reusableShare: share(reusablePrefixTokens, promptTokens),
    newTokens: sum((call) => call.newTokens),
    reportedPromptTokens: reportedPrompt,
    reportedCachedTokens: reportedCached,
    reportedCachedShare: reportedPrompt === null || reportedCached === null ? null : share(reportedCached, reportedPrompt),
    appendOnlyLimitTokens: limit,
    appendOnlyLimitShare: share(limit, promptTokens),
    breaks: breaks.length,
    undeclaredBreaks: breaks.filter((item) => !item.declared).length,
    cost: cost?.transcript ?? null,
    zeroUsageCalls: imported.filter((call) => call.reportedUsage !== undefined && isAllZero(call.reportedUsage)).length,
  };
  return cost === undefined ? { totals } : { totals, callCosts: cost.calls };
}

function costOf(
  imported: readonly ImportedCall[],
  calls: readonly AnalyzedCall[],
  extras: readonly CallExtras[],
  pricing: CallPricing,
  options: CostOptions,
): { transcript: TranscriptCost; calls: Array<CallCost | undefined> } {
  const pricedIndexes = calls.map((_call, index) => index).filter((index) => pricing.prices(index) !== undefined);
  const rule = toCacheRuleName(pricing.prices(pricedIndexes[0]!)!.pricing.cacheRule);
  let reportedCalls = 0;
  const ledgerCalls: LedgerCall[] = pricedIndexes.map((index) => {
    const call = calls[index]!;
    const usage = usableReportedUsage(imported[index]?.reportedUsage);
    const outputTokens = usage?.completionTokens ?? extras[index]?.responseTokens() ?? 0;
    if (usage?.promptTokens !== undefined && usage.cachedTokens !== undefined) {
      reportedCalls++;
      const reported: LedgerCall = { promptTokens: usage.promptTokens, cachedTokens: usage.cachedTokens, cacheWriteTokens: usage.cacheWriteTokens ?? 0, outputTokens };
      if (usage.cacheWrite1hTokens !== undefined) reported.cacheWrite1hTokens = usage.cacheWrite1hTokens;
      return reported;
    }
    const callRule = toCacheRuleName(pricing.prices(index)!.pricing.cacheRule);
    const outcome = applyCacheRule(callRule, { promptTokens: call.promptTokens, reusablePrefixTokens: call.reusablePrefixTokens, tailTokens: extras[index]?.tailTokens ?? 0 });
    return { promptTokens: call.promptTokens, ...outcome, outputTokens };
  });
  const { totals, calls: entries } = buildUsageLedger(ledgerCalls, (position) => pricing.prices(pricedIndexes[position]!)?.pricing, options);
  const cost = totals.cost!;
  const prices = priceUses(pricedIndexes, pricing);
  const result: TranscriptCost = {
    pricing: [...new Set(prices.map((use) => use.pricing))].join(", "),
    prices,
    unpricedCalls: calls.length - pricedIndexes.length,
    cacheRule: rule,
    basis: reportedCalls === pricedIndexes.length ? "reported" : reportedCalls === 0 ? "computed" : "mixed",
    promptTokens: totals.promptTokens,
    cachedTokens: totals.cachedTokens,
    cacheWriteTokens: totals.cacheWriteTokens,
    cacheWrite1hTokens: totals.cacheWrite1hTokens,
    outputTokens: totals.outputTokens,
    cachedShare: totals.cachedShare,
    ...cost,
  };
  const recordedCosts = imported.map((call) => call.reportedUsage?.cost);
  if (recordedCosts.length > 0 && recordedCosts.every((value) => value !== undefined)) result.reportedCost = recordedCosts.reduce<number>((total, value) => total + value!, 0);
  // One cost per call of the transcript (undefined where the call's model has no prices).
  const perCall: Array<CallCost | undefined> = calls.map(() => undefined);
  entries.forEach((entry, position) => (perCall[pricedIndexes[position]!] = entry.cost));
  return { transcript: result, calls: perCall };
}

/** One entry per (model, price list), in the order the calls used them. */
function priceUses(pricedIndexes: readonly number[], pricing: CallPricing): PriceUse[] {
  const uses = new Map<string, PriceUse>();
  for (const index of pricedIndexes) {
    const prices = pricing.prices(index)!;
    const model = pricing.model(index) ?? null;
    const key = `${model ?? ""}\u0000${prices.name}`;
    const use = uses.get(key) ?? { model, pricing: prices.name, calls: 0, fallback: prices.fallback === true };
    use.calls += 1;
    uses.set(key, use);
  }
  return [...uses.values()];
}

function sumReported(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((total, value) => total + value, 0);
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
