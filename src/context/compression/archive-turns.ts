import type { Message, UntrustedSource } from "../../types/index.js";
import { groupIntoUnits } from "./conversation-units.js";
import { COMPRESSED_MARKER, derivedId, isCompressedMessage } from "./markers.js";
import type { SummarySource } from "./summarizer.js";
import { unitToSource } from "./unit-source.js";

export interface ArchiveRange {
  start: number;
  /** Exclusive. */
  end: number;
  sources: SummarySource[];
}

/**
 * Where archival summaries may go: maximal runs of at least two whole units between `from` and `to`
 * that contain nothing compressed before (stubs and summaries already sent are frozen) and no
 * request from the user (kept verbatim).
 */
export function findArchiveRanges(messages: readonly Message[], from: number, to: number): ArchiveRange[] {
  const ranges: ArchiveRange[] = [];
  let current: ArchiveRange | undefined;
  const close = () => {
    if (current && current.sources.length >= 2) ranges.push(current);
    current = undefined;
  };
  for (const unit of groupIntoUnits(messages)) {
    if (unit.start < from || unit.end > to) {
      close();
      continue;
    }
    const slice = messages.slice(unit.start, unit.end);
    const barrier = slice.some((message) => isCompressedMessage(message) || (message.role === "user" && message.meta.origin !== "harness") || message.role === "system");
    if (barrier) {
      close();
      continue;
    }
    const source = unitToSource(slice, slice[0]!.meta.id);
    if (current && current.end === unit.start) {
      current.end = unit.end;
      current.sources.push(source);
    } else {
      close();
      current = { start: unit.start, end: unit.end, sources: [source] };
    }
  }
  close();
  return ranges;
}

/** The archive message that replaces a range: one line per turn, each naming the message it came from. */
export function createArchiveMessage(range: ArchiveRange, lines: string, batch: number, now: Date, untrusted: UntrustedSource[] = [], omittedAsShown: readonly string[] = []): Message {
  const first = range.sources[0]!.messageId ?? "";
  const last = range.sources.at(-1)!.messageId ?? "";
  // The tags its lines can be between (its results' own): condensing and the next compaction read
  // only these as tags, so a trusted line that looks like one stays a line.
  const tagNonces = [...new Set(range.sources.flatMap((source) => (source.external ?? []).map((tag) => tag.nonce)))];
  return {
    role: "user",
    content:
      `${COMPRESSED_MARKER} Archived turns ${first} … ${last}, one line each (recall {"message": "<id>"} returns any original):\n${lines}`,
    meta: {
      id: derivedId(first, `a${batch}`),
      origin: "harness",
      createdAt: now.toISOString(),
      derived: {
        kind: "archive",
        replaces: range.sources.flatMap((source) => (source.messageId ? [source.messageId] : [])),
        batch,
        ...(omittedAsShown.length > 0 ? { omittedAsShown: [...omittedAsShown] } : {}),
        tagNonces,
      },
      // A summary of untrusted content is as untrusted as the content (issue 24).
      ...(untrusted.length > 0 ? { provenance: { untrusted } } : {}),
    },
  };
}
