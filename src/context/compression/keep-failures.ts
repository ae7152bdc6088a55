import { extractErrorLines } from "./extract-identifiers.js";
import type { SummarySource } from "./summarizer.js";
import { renderTaggedLines, splitTaggedText, type TaggedLine } from "./tagged-lines.js";

/**
 * A summary of failed calls that still says why they failed: the error lines of every error
 * source that the summary lost are put in front of it. Erasing failed attempts erases experience
 * (the seed), and a summariser that weighs lines by relevance can drop them. A tagged result's
 * lines stay between its tags: the summary may be archived into a message in the user's role.
 */
export function keepFailures(summary: string, sources: readonly SummarySource[]): string {
  const missing: string[] = [];
  for (const source of sources) {
    if (!source.isError) continue;
    const errors = errorLinesOf(source, 3);
    const lines = errors.length > 0 ? errors : firstLineOf(source);
    const fresh = lines.filter((entry) => entry.line !== "" && !summary.includes(entry.line));
    for (const entry of fresh.filter((candidate) => candidate.tag === undefined)) missing.push(`Failed (${source.label}): ${entry.line}`);
    const tagged = fresh.filter((candidate) => candidate.tag !== undefined);
    if (tagged.length > 0) missing.push(`Failed (${source.label}):`, ...renderTaggedLines(tagged, ""));
  }
  return missing.length === 0 ? summary : `${missing.join("\n")}\n${summary}`;
}

/**
 * The error lines of `source`, at most `limit` per result it holds, each with the tags of the result
 * it came from. An untagged source gives the same lines as `extractErrorLines` of its text.
 */
export function errorLinesOf(source: SummarySource, limit: number): TaggedLine[] {
  return groupsOf(source).flatMap(({ text, tag }) => extractErrorLines(text, limit).map((line) => (tag ? { line, tag } : { line })));
}

function firstLineOf(source: SummarySource): TaggedLine[] {
  const group = groupsOf(source).find(({ text }) => text.trim() !== "");
  if (group === undefined) return [];
  const line = group.text.trim().split("\n")[0]!.slice(0, 300);
  return [group.tag ? { line, tag: group.tag } : { line }];
}

/** `source`'s text as one group, or (tagged) split into the runs of lines of each result and the harness's lines. */
function groupsOf(source: SummarySource): Array<{ text: string; tag?: TaggedLine["tag"] }> {
  if ((source.external?.length ?? 0) === 0) return [{ text: source.text }];
  const groups: Array<{ lines: string[]; tag?: TaggedLine["tag"] }> = [];
  for (const entry of splitTaggedText(source.text, source.external!)) {
    const last = groups.at(-1);
    if (last !== undefined && last.tag?.nonce === entry.tag?.nonce) last.lines.push(entry.line);
    else groups.push({ lines: [entry.line], ...(entry.tag ? { tag: entry.tag } : {}) });
  }
  return groups.map(({ lines, tag }) => ({ text: lines.join("\n"), ...(tag ? { tag } : {}) }));
}
