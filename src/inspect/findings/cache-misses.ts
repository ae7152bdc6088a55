import type { CacheMissCause } from "../../types/index.js";
import type { Finding, FindingInput } from "./finding.js";

const causeLabels: Record<CacheMissCause["kind"], string> = {
  prefix_changed: "prefix changed",
  tools_changed: "tool set changed",
  server_edit: "server-side edit",
  model_changed: "model changed",
  effort_changed: "effort changed",
  cache_expired: "cache expired",
  provider_miss: "provider missed for no visible reason",
};

/**
 * Calls whose reported cached tokens fell short of the reusable prefix, grouped by cause, with the
 * dollars re-billed. Severity follows what the harness can do about it: expiries and undeclared
 * changes are fixable (a longer lifetime, a stable prefix); the provider's own misses are not.
 */
export function detectCacheMisses(input: FindingInput): Finding | undefined {
  const misses = input.calls.flatMap((call) => (call.miss === undefined ? [] : [{ call: call.index, miss: call.miss }]));
  if (misses.length === 0) return undefined;
  const byCause = new Map<CacheMissCause["kind"], { calls: number[]; tokens: number; usd: number; priced: boolean }>();
  for (const { call, miss } of misses) {
    const entry = byCause.get(miss.cause.kind) ?? { calls: [], tokens: 0, usd: 0, priced: true };
    entry.calls.push(call);
    entry.tokens += miss.missedTokens;
    if (miss.rebilledUsd === undefined) entry.priced = false;
    else entry.usd += miss.rebilledUsd;
    byCause.set(miss.cause.kind, entry);
  }
  const parts = [...byCause.entries()].map(
    ([kind, entry]) => `${causeLabels[kind]} ×${entry.calls.length} (calls ${entry.calls.join(", ")}: ${entry.tokens.toLocaleString("en-US")} tokens${entry.priced ? `, $${entry.usd.toFixed(4)}` : ""})`,
  );
  const totalUsd = misses.every(({ miss }) => miss.rebilledUsd !== undefined) ? misses.reduce((sum, { miss }) => sum + miss.rebilledUsd!, 0) : undefined;
  const fixable = misses.some(({ miss }) => miss.cause.kind === "cache_expired" || ((miss.cause.kind === "prefix_changed" || miss.cause.kind === "tools_changed") && !miss.cause.declared));
  const expired = byCause.has("cache_expired");
  return {
    code: "cache_misses",
    severity: fixable ? "medium" : "low",
    message:
      `${misses.length} call${misses.length === 1 ? "" : "s"} got fewer cached tokens than the previous prompt left reusable: ${parts.join("; ")}` +
      (totalUsd === undefined ? "." : `; $${totalUsd.toFixed(4)} re-billed in all.`) +
      (expired ? " Idle gaps past the cache lifetime re-bill the whole prefix: a 1-hour lifetime (--cache-ttl 1h) costs 2× on writes and survives pauses." : ""),
    calls: misses.map(({ call }) => call),
    evidence: { misses: misses.map(({ call, miss }) => ({ call, ...miss })), ...(totalUsd === undefined ? {} : { rebilledUsd: totalUsd }) },
  };
}
