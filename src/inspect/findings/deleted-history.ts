import { plural, severityByFrequency, sumLostTokens, undeclaredBreaks } from "./break-findings.js";
import type { Finding, FindingInput } from "./finding.js";

/** Earlier messages removed without a declared compaction, typically a sliding window. */
export function detectDeletedHistory(input: FindingInput): Finding | undefined {
  const breaks = undeclaredBreaks(input, (item) => item.cause === "messages_removed");
  if (breaks.length === 0) return undefined;
  const lostTokens = sumLostTokens(breaks);
  const first = breaks[0]!;
  return {
    code: "deleted_history",
    severity: severityByFrequency(breaks.length, input.calls.length),
    message:
      `Earlier messages were removed from the history ${plural(breaks.length, "time")} (first at call ${first.call}: ${first.break.detail}) — a sliding ` +
      `window. Every removal shifts all later messages, so the cache is lost from the removed message on: ${plural(lostTokens, "cached token")}. ` +
      "Keep the history append-only and compress rarely, in one declared batch near the context limit (keeping tool-call/result pairs together).",
    calls: breaks.map((item) => item.call),
    evidence: { removals: breaks.length, lostTokens, examples: breaks.slice(0, 3).map((item) => ({ call: item.call, index: item.break.index, detail: item.break.detail })) },
  };
}
