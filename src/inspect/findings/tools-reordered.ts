import { plural, severityByFrequency, sumLostTokens, undeclaredBreaks } from "./break-findings.js";
import type { Finding, FindingInput } from "./finding.js";

/** The same tools sent in a different order: the cache stops at the first moved tool. */
export function detectToolsReordered(input: FindingInput): Finding | undefined {
  const breaks = undeclaredBreaks(input, (item) => item.cause === "tools_reordered");
  if (breaks.length === 0) return undefined;
  const first = breaks[0]!.call;
  const order = (call: number) => input.transcript.calls[call]?.request.tools.map((tool) => tool.name) ?? [];
  const lostTokens = sumLostTokens(breaks);
  return {
    code: "tools_reordered",
    severity: severityByFrequency(breaks.length, input.calls.length),
    message:
      `The same tool definitions were sent in a different order ${plural(breaks.length, "time")} (first at call ${first}). Tools come ` +
      `before the conversation, so each reordering invalidated the cached conversation too: ${plural(lostTokens, "cached token")} lost. ` +
      "Sort the tools once (e.g. by name) and keep that order for the session; announce tools found later in a message instead of inserting them.",
    calls: breaks.map((item) => item.call),
    evidence: { reorderings: breaks.length, lostTokens, example: { call: first, before: order(first - 1), after: order(first) } },
  };
}
