import { breakExamples, plural, severityByFrequency, sumLostTokens, undeclaredBreaks } from "./break-findings.js";
import type { Finding, FindingInput } from "./finding.js";

// Dates, clock times, ISO timestamps, Unix epochs: the usual dynamic text in system prompts.
const timestampPattern = /\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}(:\d{2})?|\b1[6-9]\d{8}\b|\b(mon|tues|wednes|thurs|fri|satur|sun)day\b/i;

/** The system prompt changed between calls: everything after the change is re-processed every time. */
export function detectDynamicSystemPrompt(input: FindingInput): Finding | undefined {
  const breaks = undeclaredBreaks(input, (item) => item.cause === "system_changed");
  if (breaks.length === 0) return undefined;
  const examples = breakExamples(breaks);
  const first = examples[0]!;
  const looksLikeTimestamp = examples.some((example) => timestampPattern.test(example.next) || timestampPattern.test(example.previous));
  const lostTokens = sumLostTokens(breaks);
  return {
    code: "dynamic_system_prompt",
    severity: severityByFrequency(breaks.length, input.calls.length),
    message:
      `The system prompt changed between calls ${plural(breaks.length, "time")} (call ${first.call}: ${JSON.stringify(first.previous)} → ${JSON.stringify(first.next)})` +
      `${looksLikeTimestamp ? ", apparently a timestamp" : ""}. The prompt cache stops at the first changed byte, so ${plural(lostTokens, "cached token")} ` +
      "had to be processed again. Keep the system prompt byte-identical for the whole session; put the time and other changing values " +
      "in the tail status message or in the tool result they describe.",
    calls: breaks.map((item) => item.call),
    evidence: { changes: breaks.length, lostTokens, looksLikeTimestamp, examples },
  };
}
