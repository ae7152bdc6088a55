import { extractIdentifiers, formatIdentifierList } from "./extract-identifiers.js";
import type { SummarySource } from "./summarizer.js";
import { splitTaggedText, tagLinesCost, type ExternalTag, type TaggedLine } from "./tagged-lines.js";

/** The identifiers of some sources, by where they were read: trusted lines, or a tagged result's lines. */
export interface IdentifiersBySource {
  /** Those a line of a trusted result (or of the model, the user) names. */
  trusted: string[];
  /** Per tagged result, those only its lines name (none a trusted line names too). */
  tagged: Array<{ tag: ExternalTag; identifiers: string[] }>;
}

/**
 * The identifiers of `sources`, each once, most useful first (see `extractIdentifiers`): those a
 * trusted line names, then per tagged result those only its lines name. A page's identifiers (its
 * links, the paths it mentions) are its words: listed untagged, they would read as the harness's.
 * The tags themselves are no identifiers (ctxkit's, not the content's).
 */
export function identifiersBySource(sources: readonly SummarySource[]): IdentifiersBySource {
  const trustedLines: string[] = [];
  const taggedLines = new Map<string, { tag: ExternalTag; lines: string[] }>();
  for (const source of sources) {
    for (const entry of splitTaggedText(source.text, source.external ?? [])) {
      if (entry.tag === undefined) trustedLines.push(entry.line);
      else (taggedLines.get(entry.tag.nonce) ?? taggedLines.set(entry.tag.nonce, { tag: entry.tag, lines: [] }).get(entry.tag.nonce)!).lines.push(entry.line);
    }
  }
  const trusted = extractIdentifiers(trustedLines.join("\n"));
  const listed = new Set(trusted);
  const tagged: IdentifiersBySource["tagged"] = [];
  for (const { tag, lines } of taggedLines.values()) {
    const identifiers = extractIdentifiers(lines.join("\n")).filter((identifier) => !listed.has(identifier));
    for (const identifier of identifiers) listed.add(identifier);
    if (identifiers.length > 0) tagged.push({ tag, identifiers });
  }
  return { trusted, tagged };
}

/**
 * Lines listing `identifiers` (those `isShown` says are not shown already) after `label`, within
 * `maxChars` (each line with its newline, a tagged one with its tags): the trusted ones are paid
 * first, then each tagged result's, in a line of its own between its tags. The tagged lines come
 * first: rendered with `renderTaggedLines`, one goes into the block of the line before it when
 * that is the same result's.
 */
export function identifierLines(identifiers: IdentifiersBySource, label: string, maxChars: number, isShown: (identifier: string) => boolean): TaggedLine[] {
  let room = maxChars;
  const lineOf = (list: readonly string[], tag: ExternalTag | undefined): TaggedLine[] => {
    const overhead = label.length + 1 + (tag === undefined ? 0 : tagLinesCost(tag, ""));
    const formatted = formatIdentifierList(list.filter((identifier) => !isShown(identifier)), room - overhead);
    if (formatted === "") return [];
    room -= formatted.length + overhead;
    return [{ line: `${label}${formatted}`, ...(tag === undefined ? {} : { tag }) }];
  };
  const trusted = lineOf(identifiers.trusted, undefined);
  return [...identifiers.tagged.flatMap((entry) => lineOf(entry.identifiers, entry.tag)), ...trusted];
}
