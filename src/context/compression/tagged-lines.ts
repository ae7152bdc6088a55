import type { Message } from "../../types/index.js";
import { findMarkers, type MarkerMatch } from "../external-content/find-markers.js";
import { externalContentTags } from "../external-content/wrap-external-content.js";

/** The tags a result from outside was wrapped in (`meta.external`): lines kept from it stay inside the same tags. */
export interface ExternalTag {
  source: string;
  nonce: string;
}

/** A line with the tags of the result it came from (none for a trusted result). */
export interface TaggedLine {
  line: string;
  tag?: ExternalTag;
}

/** The tags of a tool result the source tags wrapped, from its metadata (never from its text). */
export function externalTagOf(message: Message): ExternalTag | undefined {
  const external = message.role === "tool" ? message.meta.external : undefined;
  return external !== undefined && external.nonce !== "" ? { source: external.source, nonce: external.nonce } : undefined;
}

/** A line that is one external block's opening or closing tag, and nothing else. */
export function isExternalTagLine(line: string): MarkerMatch | undefined {
  // The tags are ctxkit's own, as written (a look-alike in a result was neutralised when it was
  // tagged): only a line that starts like one is parsed.
  if (!line.startsWith("<external_content ") && !line.startsWith("</external_content ")) return undefined;
  const markers = findMarkers(line);
  const marker = markers[0];
  return markers.length === 1 && marker!.kind === "external" && marker!.start === 0 && marker!.end === line.length ? marker : undefined;
}

/**
 * What a line of derived text (an archive, kept lines) is, read with the tag `open` around it:
 * the tag it opens (an opening tag line), `null` (the closing tag line of `open`), or undefined (a
 * line of content). Only ctxkit's own tags are boundaries: an opening tag whose id is one of
 * `nonces` — the tags the message was written with, recorded in its metadata (`tagNonces`) — when
 * no block is open, and the closing tag of the open block. A trusted line (the user's file, a bash
 * output) that only looks like a tag stays a line: read as one, it would put trusted lines inside a
 * block, or drop itself. A page's look-alike never gets here: it was neutralised when it was tagged.
 * `nonces` undefined: a message written before they were recorded, whose tag lines are read by
 * their shape alone.
 */
export function tagOfTagLine(trimmed: string, open: ExternalTag | undefined, nonces: ReadonlySet<string> | undefined): ExternalTag | null | undefined {
  const marker = isExternalTagLine(trimmed);
  if (marker === undefined || !isBlockBoundary(marker, open, (nonce) => nonces === undefined || nonces.has(nonce))) return undefined;
  return marker.closing ? null : { source: marker.source ?? "", nonce: marker.id! };
}

/**
 * The one rule for what ends or starts a block, with `open` the block open: its own closing tag, or,
 * when none is open, the opening tag of a nonce `isKnown` (a tag of ctxkit's). Any other tag is text.
 */
function isBlockBoundary(marker: MarkerMatch, open: ExternalTag | undefined, isKnown: (nonce: string) => boolean): boolean {
  if (marker.kind !== "external" || marker.id === undefined) return false;
  return marker.closing ? marker.id === open?.nonce : open === undefined && isKnown(marker.id);
}

/**
 * The nonces of the tags the lines quoted from `messages` can be between (see `tagOfTagLine`): each
 * tagged result's, and those an archive or a summary recorded. Undefined when one of them holds
 * untrusted lines but was written before nonces were recorded: what is made from it reads tag
 * lines by their shape, as it did.
 */
export function tagNoncesOf(messages: readonly Message[]): string[] | undefined {
  const nonces = new Set<string>();
  for (const message of messages) {
    const tag = externalTagOf(message);
    if (tag !== undefined) nonces.add(tag.nonce);
    const derived = message.meta.derived;
    if (derived?.kind !== "archive" && derived?.kind !== "summary") continue;
    const recorded = recordedTagNonces(message);
    if (recorded === undefined && (message.meta.provenance?.untrusted.length ?? 0) > 0) return undefined;
    for (const nonce of recorded ?? []) nonces.add(nonce);
  }
  return [...nonces];
}

/**
 * The nonces of the tags an archive's or a summary's lines can be between (see `tagOfTagLine`), as
 * it recorded them; undefined for one written before they were recorded.
 */
export function recordedTagNonces(message: Message): ReadonlySet<string> | undefined {
  const derived = message.meta.derived;
  const recorded = derived?.kind === "archive" || derived?.kind === "summary" ? derived.tagNonces : undefined;
  return recorded === undefined ? undefined : new Set(recorded);
}

/** The opening and closing tag lines of `tag`, indented (see `externalContentTags`). */
export function tagLines(tag: ExternalTag, indent: string): [string, string] {
  const { open, close } = externalContentTags(tag.source, tag.nonce);
  return [`${indent}${open}`, `${indent}${close}`];
}

/** What the two tag lines of `tag` cost, each with its newline: kept lines pay for the tags around them. */
export function tagLinesCost(tag: ExternalTag, indent: string): number {
  return tagLines(tag, indent).reduce((sum, line) => sum + line.length + 1, 0);
}

/**
 * Lines, each prefixed with `indent`, those of a tagged result between that result's tags (each
 * tag line prefixed with `tagIndent`): one pair around each run of lines of the same result, none
 * around untagged lines.
 */
export function renderTaggedLines(lines: readonly TaggedLine[], indent: string, tagIndent = indent): string[] {
  const rendered: string[] = [];
  let open: ExternalTag | undefined;
  for (const entry of lines) {
    if (open !== undefined && open.nonce !== entry.tag?.nonce) rendered.push(tagLines(open, tagIndent)[1]);
    if (entry.tag !== undefined && open?.nonce !== entry.tag.nonce) rendered.push(tagLines(entry.tag, tagIndent)[0]);
    open = entry.tag;
    rendered.push(`${indent}${entry.line}`);
  }
  if (open !== undefined) rendered.push(tagLines(open, tagIndent)[1]);
  return rendered;
}

/**
 * The lines of `text` (a tool result, or a summary source holding several), those inside the block
 * of one of `tags` (known from the results' metadata) marked with it; the tag lines themselves are
 * left out, and so is the rest of a line holding one (`result web_fetch: <external_content …>`):
 * kept lines get the tags again, around them, and a tag never goes on its own.
 */
export function splitTaggedText(text: string, tags: readonly ExternalTag[]): TaggedLine[] {
  const byNonce = new Map(tags.map((tag) => [tag.nonce, tag]));
  const lines: TaggedLine[] = [];
  let open: ExternalTag | undefined;
  for (const line of text.split("\n")) {
    // Only the tags of `tags` (from the results' metadata), by the rule of `isBlockBoundary`.
    const marker = line.includes("external_content") ? findMarkers(line).find((candidate) => isBlockBoundary(candidate, open, (nonce) => byNonce.has(nonce))) : undefined;
    if (marker !== undefined) {
      // A tag known by its nonce alone (an archive's, see `unitToSource`) takes its source from its own tag line.
      const known = byNonce.get(marker.id!);
      open = marker.closing || known === undefined ? undefined : known.source === "" && marker.source ? { source: marker.source, nonce: known.nonce } : known;
      continue;
    }
    lines.push(open ? { line, tag: open } : { line });
  }
  return lines;
}
