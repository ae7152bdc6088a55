import { errorLinesOf } from "./keep-failures.js";
import type { SummarySource } from "./summarizer.js";
import { identifierLines, identifiersBySource } from "./tagged-identifiers.js";
import { renderTaggedLines, tagLinesCost } from "./tagged-lines.js";

/**
 * A model summary checked for omissions (gemini-cli runs a second model pass for this; a string
 * check is free): error messages and identifiers of the sources that the summary does not contain
 * are appended, within `maxChars` extra characters, so a paraphrase cannot silently lose them.
 * A tagged result's error lines and identifiers stay between its tags (paid for), and its tags are no identifiers.
 */
export function keepMissingFacts(summary: string, sources: readonly SummarySource[], maxChars: number): string {
  const additions: string[] = [];
  let room = maxChars;
  const errors = sources
    .filter((source) => source.isError)
    .flatMap((source) => errorLinesOf(source, 3))
    .filter((entry) => !summary.includes(entry.line));
  for (const error of errors) {
    if (error.tag === undefined) {
      if (error.line.length + 12 > room) break;
      additions.push(`Failure kept: ${error.line}`);
      room -= error.line.length + 16;
      continue;
    }
    const cost = error.line.length + 16 + tagLinesCost(error.tag, "");
    if (cost > room) break;
    additions.push("Failure kept:", ...renderTaggedLines([error], ""));
    room -= cost;
  }
  // A tagged result's identifiers between its tags, as its error lines (see `identifiersBySource`).
  additions.push(...renderTaggedLines(identifierLines(identifiersBySource(sources), "Identifiers kept: ", room - 12, (identifier) => summary.includes(identifier)), ""));
  return additions.length === 0 ? summary : `${summary.trimEnd()}\n${additions.join("\n")}`;
}
