import { estimateCost, findModelPricing } from "../tokens/pricing.js";
import { buildUsageLedger, toLedgerCall } from "../session/usage-ledger.js";
import { addUsage, emptyUsage, type Usage } from "../types/index.js";

/**
 * "12,345 prompt tokens (80.1% cached), 1,234 output, 5 calls, append-only limit 91.0% cached, cost $0.0123".
 * Given each call's usage it also shows the append-only limit: the cached share perfect prefix reuse
 * would give for the same calls, so the gap is what the harness's layout costs.
 */
export function formatUsageLine(usage: Usage | readonly Usage[], calls: number, model: string | undefined): string {
  const perCall = Array.isArray(usage) ? (usage as readonly Usage[]) : undefined;
  const total = perCall === undefined ? (usage as Usage) : perCall.reduce(addUsage, emptyUsage());
  const share = total.inputTokens === 0 ? 0 : (total.cachedInputTokens / total.inputTokens) * 100;
  const limit = perCall === undefined ? "" : describeAppendOnlyLimit(perCall, share);
  const pricing = model ? findModelPricing(model) : undefined;
  const cost = pricing ? `cost $${estimateCost(total, pricing).toFixed(4)}` : `cost unknown (no price for '${model ?? "?"}' in the catalog)`;
  return (
    `${total.inputTokens.toLocaleString("en-US")} prompt tokens (${share.toFixed(1)}% cached), ` +
    `${total.outputTokens.toLocaleString("en-US")} output, ${calls} call${calls === 1 ? "" : "s"}${limit}, ${cost}`
  );
}

/**
 * The append-only limit counts only reuse between the calls given: the first call can reuse nothing
 * of them, so a provider cache warmed by earlier sessions can report more cached than the "limit".
 * Say so instead of printing two numbers that look contradictory. A call that failed or was stopped
 * mid-stream reports no tokens (all zero) although the server read its prompt: it is left out of the
 * limit, which it would pull to 0% (a chat with one cut reply showed "limit 0.0% cached — above it,
 * the provider reused a cache from before this session" for a brand-new session), and named as the
 * other place a cache can come from.
 */
function describeAppendOnlyLimit(perCall: readonly Usage[], reportedShare: number): string {
  const reported = perCall.filter((usage) => usage.inputTokens > 0);
  const unreported = perCall.length - reported.length;
  if (reported.length < 2) return ", append-only limit n/a until the second call (it counts reuse between this session's calls)";
  const limitShare = buildUsageLedger(reported.map(toLedgerCall)).totals.appendOnlyLimitShare * 100;
  const source =
    unreported === 0
      ? "from before this session"
      : `from before this session or from ${unreported === 1 ? "the call" : `the ${unreported} calls`} that reported no usage (failed or stopped mid-reply)`;
  const note = reportedShare > limitShare + 0.05 ? ` — above it, the provider reused a cache ${source}` : "";
  return `, append-only limit ${limitShare.toFixed(1)}% cached${note}`;
}
