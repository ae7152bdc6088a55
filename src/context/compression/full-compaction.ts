import { derivedOf, type Message, type UntrustedSource } from "../../types/index.js";
import { groupIntoUnits } from "./conversation-units.js";
import { COMPRESSED_MARKER, derivedId } from "./markers.js";
import { parseSections } from "./sectioned-summary.js";
import type { SummarySource } from "./summarizer.js";
import { unitToSource } from "./unit-source.js";

export interface CompactionRange {
  start: number;
  end: number;
  sources: SummarySource[];
  /** The latest earlier compaction summary in the range, merged into the new one. */
  previousSummary?: string;
  /** The tags `previousSummary` was written with (see `SummaryInput.previousSummaryTagNonces`). */
  previousSummaryTagNonces?: readonly string[];
}

/**
 * Everything between the first request and the recent turns, as summary sources. Earlier summaries
 * and archives are sources too: a full compaction is the one step allowed to fold them in.
 */
export function findCompactionRange(messages: readonly Message[], from: number, to: number): CompactionRange | undefined {
  const units = groupIntoUnits(messages).filter((unit) => unit.start >= from && unit.end <= to);
  if (units.length === 0) return undefined;
  let previousSummary: { text: string; tagNonces: readonly string[] | undefined } | undefined;
  const sources: SummarySource[] = [];
  for (const unit of units) {
    const slice = messages.slice(unit.start, unit.end);
    const source = unitToSource(slice, slice[0]!.meta.id);
    const first = slice[0]!;
    if (first.role === "user" && derivedOf(first, "summary") !== undefined) {
      // The lines it kept are carried by the next summary on their own (`summaryFactLines` reads
      // them from its metadata): sent again, a model would read them twice and might paraphrase them.
      const text = withoutKeptLines(first);
      if (parseSections(text).size > 0) previousSummary = { text, tagNonces: derivedOf(first, "summary")?.tagNonces };
      else sources.push({ ...source, text });
      continue;
    }
    sources.push(source);
  }
  return {
    start: units[0]!.start,
    end: units.at(-1)!.end,
    sources,
    ...(previousSummary ? { previousSummary: previousSummary.text } : {}),
    ...(previousSummary?.tagNonces ? { previousSummaryTagNonces: previousSummary.tagNonces } : {}),
  };
}

/** The heading of the fact lines kept beside a summary (see `summaryFactLines`); not a summary section. */
export const KEPT_LINES_HEADING = "## Lines kept verbatim from the replaced turns";

/**
 * A summary message's text without the lines kept beside it: the section `createSummaryMessage`
 * appended for its recorded `keptLines`, found from that record (a summary's own text may quote
 * the heading).
 */
function withoutKeptLines(message: Extract<Message, { role: "user" }>): string {
  const keptLines = derivedOf(message, "summary")?.keptLines ?? [];
  const section = keptSection(keptLines);
  return section !== "" && message.content.endsWith(section) ? message.content.slice(0, -section.length) : message.content;
}

function keptSection(keptLines: readonly string[]): string {
  return keptLines.length > 0 ? `\n${KEPT_LINES_HEADING}\n${keptLines.join("\n")}` : "";
}

/**
 * The message that replaces `range`: the summary, then `keptLines` (see `summaryFactLines`) under
 * their own heading, recorded in the metadata too so the next compaction reads them from there,
 * with `tagNonces`, the tags they can be between (see `tagNoncesOf`).
 */
export function createSummaryMessage(
  range: CompactionRange,
  summary: string,
  firstId: string,
  lastId: string,
  batch: number,
  now: Date,
  untrusted: UntrustedSource[] = [],
  keptLines: readonly string[] = [],
  tagNonces?: readonly string[],
): Message {
  const kept = keptSection(keptLines);
  return {
    role: "user",
    content:
      `${COMPRESSED_MARKER} Summary of the conversation so far. It replaces messages ${firstId} … ${lastId}; ` +
      `recall {"message": "<id>"} or recall {"query": "…"} returns any original.\n${summary}${kept}`,
    meta: {
      id: derivedId(firstId, `s${batch}`),
      origin: "harness",
      createdAt: now.toISOString(),
      derived: {
        kind: "summary",
        replaces: range.sources.flatMap((source) => (source.messageId ? [source.messageId] : [])),
        batch,
        ...(keptLines.length > 0 ? { keptLines: [...keptLines] } : {}),
        // The tags its kept lines (and lines a model summary's check appended) can be between (see
        // `tagNoncesOf`): the next compaction reads only these as tags. Absent when what it
        // replaced did not record them.
        ...(tagNonces !== undefined ? { tagNonces: [...tagNonces] } : {}),
      },
      // A summary of untrusted content is as untrusted as the content (issue 24).
      ...(untrusted.length > 0 ? { provenance: { untrusted } } : {}),
    },
  };
}

/**
 * Where the recent turns start: whole units from the end while they fit in `keepTokens` (at least
 * the last unit), never before `after`.
 */
export function recentTailStart(messages: readonly Message[], keepTokens: number, countMessage: (message: Message) => number, after: number): number {
  const units = groupIntoUnits(messages);
  let start = messages.length;
  let tokens = 0;
  for (let index = units.length - 1; index >= 0; index -= 1) {
    const unit = units[index]!;
    if (unit.start <= after) break;
    const unitTokens = messages.slice(unit.start, unit.end).reduce((sum, message) => sum + countMessage(message), 0);
    if (start !== messages.length && tokens + unitTokens > keepTokens) break;
    tokens += unitTokens;
    start = unit.start;
  }
  return start;
}
