import type { ContextState } from "../context-policy.js";
import { nextBatchNumber } from "./markers.js";
import { budgetToolResult } from "./budget-tool-result.js";
import { estimateRemainingCalls, isCacheCold, worthCompacting } from "./cache-economics.js";
import { createCompactionBreaker } from "./compaction-breaker.js";
import type { CompressionSettings } from "./compression-options.js";
import { emptyCompressionStats } from "./compression-stats.js";
import { createContextMeter } from "./context-meter.js";
import type { CompressionPolicy } from "./create-compression-policy.js";
import { editBetween } from "./edit-between.js";
import { planCompression } from "./plan-compression.js";

type Mode = { kind: "needed" | "hard" | "cold" | "early"; why: string };

/**
 * `ctxkit`, the layered default. At write time: noise removal and the tool-result budget (layers
 * 1–2). Before a call, only when the context passes the trigger (or the provider reported an
 * overflow, or the cache went cold above the lower threshold, or the cache economics favour it):
 * one batch of layers 3–5 down to the target, as one `replace` edit — one declared cache break.
 */
export function createLayeredPolicy(settings: CompressionSettings): CompressionPolicy {
  const meter = createContextMeter(settings.counter);
  const breaker = createCompactionBreaker(settings.maxConsecutiveFailures);
  const stats = emptyCompressionStats();
  const triggerTokens = settings.triggerTokens;
  let batch = 0;
  let calls = 0;

  const chooseMode = (state: ContextState, tokens: number): Mode | undefined => {
    const percent = Math.round((tokens / settings.contextWindow) * 100);
    if (state.overflow) return { kind: "hard", why: "the provider reported a context overflow" };
    if (tokens >= triggerTokens) return { kind: "needed", why: `the context reached ${percent}% of the ${settings.contextWindow}-token window` };
    if (tokens < Math.max(settings.contextWindow * settings.earlyTrigger, settings.earlyMinTokens)) return undefined;
    const cold = tokens >= settings.contextWindow * settings.coldTrigger && isCacheCold(state.now, state.lastRequestAt, settings.cacheTtlMs);
    return cold
      ? { kind: "cold", why: `the prompt cache is cold (idle over ${Math.round(settings.cacheTtlMs / 1000)} s) at ${percent}% of the window` }
      : { kind: "early", why: `the cache economics favour compressing at ${percent}% of the window` };
  };

  return {
    name: "ctxkit",
    // A child's context is its own (an explore) or its parent's sent bytes (a fork): it runs too briefly to compact.
    inherit: "never",
    processToolResult: (result) => budgetToolResult(result, settings, stats),
    async prepareContext(state) {
      // Batch numbers name derived ids; continuing from the trajectory keeps them unique across restarts.
      batch = Math.max(batch, nextBatchNumber(state.messages) - 1);
      calls += 1;
      breaker.observe(state.lastUsage?.inputTokens, triggerTokens);
      const measure = meter.measure(state);
      const mode = chooseMode(state, measure.tokens);
      if (mode === undefined) {
        meter.remember(state.messages);
        return [];
      }
      const required = mode.kind === "needed" || mode.kind === "hard";
      if (required) breaker.assertClosed();
      // Early (optional) batches aim at halving what is there: below the target already, a fixed
      // target would stop at the first layer that frees anything.
      const early = mode.kind === "early" || mode.kind === "cold";
      const targetTokens = early
        ? Math.min(settings.contextWindow * settings.target, measure.tokens * settings.earlyKeepShare)
        : settings.contextWindow * settings.target * (mode.kind === "hard" ? Math.min(1, measure.tokens / settings.contextWindow) : 1);
      const plan = await planCompression(
        {
          messages: state.messages,
          prefixTokens: meter.countPrefix(state.prefix),
          scale: measure.scale,
          targetTokens,
          hard: mode.kind === "hard",
          // Archive lines cost no model call (they are extractive), so early batches may use them;
          // a full compaction asks the summariser, which only a needed batch may do.
          layers: mode.kind === "early" ? settings.earlyLayers : "all",
          ...(early ? { archiveShare: settings.earlyArchiveShare, minCoverage: settings.earlyCoverage } : {}),
          batch: batch + 1,
          now: state.now,
          signal: state.signal,
          prefix: state.prefix,
          cacheCold: isCacheCold(state.now, state.lastRequestAt, settings.cacheTtlMs),
        },
        settings,
        meter,
        stats,
      );
      const freed = measure.tokens - plan.projectedTokens;
      const reason = `ctxkit compression (${mode.why}): ${plan.steps.join("; ")}; about ${measure.tokens} → ${plan.projectedTokens} tokens`;
      const edit = plan.steps.length === 0 ? undefined : editBetween(state.messages, plan.messages, reason);
      if (edit === undefined || edit.type !== "replace") {
        if (required) {
          breaker.record(false);
          stats.failedCompactions += 1;
        }
        meter.remember(state.messages);
        return [];
      }
      if (!required) {
        const suffixTokens = meter.countMessages(state.messages.slice(edit.start)) * measure.scale;
        const remainingCalls = settings.expectedRemainingCalls ?? estimateRemainingCalls(calls, measure.tokens, triggerTokens);
        const cacheCold = mode.kind === "cold";
        if (!worthCompacting({ freedTokens: freed, suffixTokens, remainingCalls, cachedPriceRatio: settings.cachedPriceRatio, cacheCold })) {
          meter.remember(state.messages);
          return [];
        }
        if (cacheCold) stats.coldCacheCompactions += 1;
      } else {
        const ok = plan.projectedTokens < triggerTokens;
        breaker.record(ok);
        if (!ok) stats.failedCompactions += 1;
      }
      batch += 1;
      stats.compactions += 1;
      stats.clearedResults += plan.clearedResults;
      stats.archivedTurns += plan.archivedTurns;
      stats.fullCompactions += plan.fullCompaction ? 1 : 0;
      stats.tokensFreed += Math.max(0, freed);
      stats.reasons.push(reason);
      meter.remember(plan.messages);
      return [edit];
    },
    stats: () => ({ ...stats, reasons: [...stats.reasons] }),
  };
}
