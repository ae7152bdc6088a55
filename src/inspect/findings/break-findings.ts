import type { CallBreak } from "../analysis/call-break.js";
import type { FindingInput } from "./finding.js";

export interface LocatedBreak {
  call: number;
  break: CallBreak;
}

/** The undeclared breaks of a transcript that match a predicate, with the call each belongs to. */
export function undeclaredBreaks(input: FindingInput, matches: (item: CallBreak, call: number) => boolean): LocatedBreak[] {
  return input.calls.flatMap((call) => call.breaks.filter((item) => !item.declared && matches(item, call.index)).map((item) => ({ call: call.index, break: item })));
}

export function sumLostTokens(breaks: readonly LocatedBreak[]): number {
  return breaks.reduce((total, item) => total + item.break.lostTokens, 0);
}

/** "call 4: "…10:30…" → "…10:31…"" for the first few breaks. */
export function breakExamples(breaks: readonly LocatedBreak[], limit = 3): Array<{ call: number; previous: string; next: string }> {
  return breaks.slice(0, limit).map((item) => ({ call: item.call, previous: item.break.excerpt?.previous ?? "", next: item.break.excerpt?.next ?? "" }));
}

export const plural = (count: number, word: string) => `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;

/** high when it happens on at least half of the calls that could show it (every call after the first), else medium. */
export function severityByFrequency(occurrences: number, calls: number): "high" | "medium" {
  return occurrences >= Math.max(1, (calls - 1) / 2) ? "high" : "medium";
}
