import { breakExamples, plural, severityByFrequency, sumLostTokens, undeclaredBreaks } from "./break-findings.js";
import type { Finding, FindingInput } from "./finding.js";

/**
 * A message other than the last one changed between calls (a user profile or a status message kept
 * inside the history and updated). Only the tail — after every frozen message — may change.
 */
export function detectChangedEarlierMessage(input: FindingInput): Finding | undefined {
  const breaks = undeclaredBreaks(input, (item, call) => {
    if (item.cause !== "message_edited" && item.cause !== "history_replaced") return false;
    const previousLength = input.transcript.calls[call - 1]?.request.messages.length ?? 0;
    return item.index >= 0 && item.index < previousLength - 1;
  });
  if (breaks.length === 0) return undefined;
  const lostTokens = sumLostTokens(breaks);
  const indexes = [...new Set(breaks.map((item) => item.break.index))];
  return {
    code: "changed_earlier_message",
    severity: severityByFrequency(breaks.length, input.calls.length),
    message:
      `A message already sent, not at the end, changed between calls ${plural(breaks.length, "time")} (message${indexes.length === 1 ? "" : "s"} ` +
      `${indexes.slice(0, 5).join(", ")}). The cache ends at the first changed message, so everything after it — ${plural(lostTokens, "token")} — ` +
      "was processed again. Freeze messages once sent; put changing state in a single tail message after the history, or append an update.",
    calls: breaks.map((item) => item.call),
    evidence: { changes: breaks.length, lostTokens, messageIndexes: indexes, examples: breakExamples(breaks) },
  };
}
