import { applyCacheRule, toCacheRuleName } from "../../session/cache-rules.js";
import type { NamedPricing } from "../../session/load-pricing.js";
import type { CallCost, CostOptions } from "../../session/pricing.js";
import { appendOnlyLimitTokens, buildUsageLedger, type LedgerCall } from "../../session/usage-ledger.js";
import type { ImportedCall } from "../imported-transcript.js";
import type { AnalyzedCall, TranscriptCost, TranscriptTotals } from "./analyzed-transcript.js";

/** Per call, what totals need besides the analysis: the tail's tokens and the response's. */
export interface CallExtras {
  tailTokens: number;
  /** Tokens of the recorded response, for output cost when the provider's count is not recorded (counted only then). */
  responseTokens: () => number;
}

/**
 * Totals of an analysed transcript: tokens, reusable share against the append-only limit, what the
 * provider reported, and the cost under a price list — reported cached tokens where recorded, else
 * the price list's cache rule applied to the computed reusable prefix.
 */
export function computeTranscriptTotals(
  imported: readonly ImportedCall[],
  calls: readonly AnalyzedCall[],
  extras: readonly CallExtras[],
  pricing: NamedPricing | undefined,
  options: CostOptions = {},
): { totals: TranscriptTotals; callCosts?: CallCost[] } {
  const sum = (pick: (call: AnalyzedCall) => number) => calls.reduce((total, call) => total + pick(call), 0);
  const promptTokens = sum((call) => call.promptTokens);
  const reusablePrefixTokens = sum((call) => call.reusablePrefixTokens);
  const limit = appendOnlyLimitTokens(calls.map((call) => call.promptTokens));
  const reportedPrompt = sumReported(calls.map((call) => call.reportedPromptTokens));
  const reportedCached = sumReported(calls.map((call) => call.reportedCachedTokens));
  const breaks = calls.flatMap((call) => call.breaks);
  const cost = pricing === undefined ? undefined : costOf(imported, calls, extras, pricing, options);
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
  };
  return cost === undefined ? { totals } : { totals, callCosts: cost.calls };
}

function costOf(
  imported: readonly ImportedCall[],
  calls: readonly AnalyzedCall[],
  extras: readonly CallExtras[],
  pricing: NamedPricing,
  options: CostOptions,
): { transcript: TranscriptCost; calls: CallCost[] } {
  const rule = toCacheRuleName(pricing.pricing.cacheRule);
  let reportedCalls = 0;
  const ledgerCalls: LedgerCall[] = calls.map((call, index) => {
    const usage = imported[index]?.reportedUsage;
    const outputTokens = usage?.completionTokens ?? extras[index]?.responseTokens() ?? 0;
    if (usage?.promptTokens !== undefined && usage.cachedTokens !== undefined) {
      reportedCalls++;
      return { promptTokens: usage.promptTokens, cachedTokens: usage.cachedTokens, cacheWriteTokens: usage.cacheWriteTokens ?? 0, outputTokens };
    }
    const outcome = applyCacheRule(rule, { promptTokens: call.promptTokens, reusablePrefixTokens: call.reusablePrefixTokens, tailTokens: extras[index]?.tailTokens ?? 0 });
    return { promptTokens: call.promptTokens, ...outcome, outputTokens };
  });
  const { totals, calls: entries } = buildUsageLedger(ledgerCalls, pricing.pricing, options);
  const cost = totals.cost!;
  const result: TranscriptCost = {
    pricing: pricing.name,
    cacheRule: rule,
    basis: reportedCalls === calls.length ? "reported" : reportedCalls === 0 ? "computed" : "mixed",
    promptTokens: totals.promptTokens,
    cachedTokens: totals.cachedTokens,
    cacheWriteTokens: totals.cacheWriteTokens,
    outputTokens: totals.outputTokens,
    cachedShare: totals.cachedShare,
    ...cost,
  };
  const recordedCosts = imported.map((call) => call.reportedUsage?.cost);
  if (recordedCosts.length > 0 && recordedCosts.every((value) => value !== undefined)) result.reportedCost = recordedCosts.reduce<number>((total, value) => total + value!, 0);
  return { transcript: result, calls: entries.map((entry) => entry.cost!) };
}

function sumReported(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((total, value) => total + value, 0);
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
