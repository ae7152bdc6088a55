import { extractErrorLines, extractIdentifiers, formatIdentifierList } from "./extract-identifiers.js";
import type { SummarySource } from "./summarizer.js";

/**
 * A model summary checked for omissions (gemini-cli runs a second model pass for this; a string
 * check is free): error messages and identifiers of the sources that the summary does not contain
 * are appended, within `maxChars` extra characters, so a paraphrase cannot silently lose them.
 */
export function keepMissingFacts(summary: string, sources: readonly SummarySource[], maxChars: number): string {
  const additions: string[] = [];
  let room = maxChars;
  const errors = sources
    .filter((source) => source.isError)
    .flatMap((source) => extractErrorLines(source.text, 3))
    .filter((line) => !summary.includes(line));
  for (const error of errors) {
    if (error.length + 12 > room) break;
    additions.push(`Failure kept: ${error}`);
    room -= error.length + 16;
  }
  const missing = extractIdentifiers(sources.map((source) => source.text).join("\n")).filter((identifier) => !summary.includes(identifier));
  const list = formatIdentifierList(missing, room - 30);
  if (list !== "") additions.push(`Identifiers kept: ${list}`);
  return additions.length === 0 ? summary : `${summary.trimEnd()}\n${additions.join("\n")}`;
}
