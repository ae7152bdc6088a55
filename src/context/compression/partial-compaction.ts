import type { Message } from "../../types/index.js";
import { groupIntoUnits } from "./conversation-units.js";

/**
 * Where a partial compaction ends: the fewest of the oldest units between `from` and `to` whose
 * replacement by a summary of at most `summaryTokens` brings the context down to `goalTokens`
 * (`project` gives a candidate's tokens with the summary left out). Undefined when no proper prefix
 * of the units does: then only a full compaction can reach the goal.
 *
 * Why the oldest: a compaction summary keeps identifiers but few of the lines they came from, and
 * the lines a model writes again are mostly recent ones; archives and results of the newer turns
 * stay verbatim (gemini-cli's and opencode's "protect the recent tool output", by need, not by a
 * fixed number of tokens).
 */
export function partialCompactionEnd(
  messages: readonly Message[],
  from: number,
  to: number,
  options: { goalTokens: number; summaryTokens: number; project: (withoutRange: readonly Message[]) => number },
): number | undefined {
  const units = groupIntoUnits(messages).filter((unit) => unit.start >= from && unit.end <= to);
  // The last unit alone is the full compaction's range; a proper prefix leaves at least one unit.
  for (let count = 1; count < units.length; count += 1) {
    const end = units[count - 1]!.end;
    const rest = [...messages.slice(0, units[0]!.start), ...messages.slice(end)];
    if (options.project(rest) + options.summaryTokens <= options.goalTokens) return end;
  }
  return undefined;
}
