import { extractIdentifiers, isErrorLine } from "./extract-identifiers.js";
import { keepByRank } from "./keep-by-rank.js";
import type { ExternalTag, TaggedLine } from "./tagged-lines.js";

export interface FactLineOptions {
  /** At most this many characters in all (lines joined by newlines). */
  maxChars: number;
  /** Identifiers already visible elsewhere: a line is not kept for them. */
  isKnown?: (identifier: string) => boolean;
  /** Longer lines are cut to this many characters around their first new identifier. Default 300. */
  maxLineChars?: number;
  /**
   * Lines (trimmed) the reader can already see elsewhere: not kept again, and their identifiers
   * count as seen — the line where they appeared is visible, so no other line is kept for them.
   */
  knownLines?: ReadonlySet<string>;
  /** Told of each line left out because it is in `knownLines` (an archive records them: see `omittedAsShown`). */
  onKnownLine?: (line: string) => void;
  /**
   * Identifiers the reader already sees with their line (an earlier turn of the same archive kept
   * it): a line new only for these is kept, but last, when room is left (see `extractFactLines`).
   */
  isShown?: (identifier: string) => boolean;
  /**
   * Told of each identifier a kept line shows with its context: every new identifier of a whole
   * line; of a long line's window, those it covers with a third of a window on each side (an
   * identifier cut off at a window's edge is not shown with its line).
   */
  onShownIdentifier?: (identifier: string) => void;
  /** `extractIdentifiers` of a trimmed line, from a caller that reads the same lines' identifiers again (default `extractIdentifiers`). */
  identifiersOf?: (line: string) => readonly string[];
}

/**
 * The lines of a tool result worth keeping verbatim when the rest is cleared: every error line,
 * and for each identifier (path, name, number…) the first line it appears on — the fact a later
 * step needs, not just the name ("12: def compute_total(items):" rather than "compute_total").
 * Trimmed, in their original order. When the budget runs out, error lines go first, then lines
 * with a new name, path or URL, then lines whose only new identifiers are numbers (a numbered
 * listing's `2155\t        else:`: every line of a numbered file view has a new number, so in
 * order the first lines of the view took the budget from the names further down), then lines new
 * only for identifiers shown elsewhere with their line (`isShown`). With room for every line,
 * nothing changes.
 */
export function extractFactLines(text: string, options: FactLineOptions): string[] {
  return pickFactLines(text.split("\n").map((line) => ({ line })), options).map((entry) => entry.line);
}

/**
 * `extractFactLines` over lines of several results, some of them tagged (see `splitTaggedText`):
 * each kept line keeps its result's tags, and the first kept line of a tagged result pays
 * `tagCost` for the tag lines around its result's kept lines. Without tags, the same lines as
 * `extractFactLines` of the lines joined.
 */
export function extractTaggedFactLines(lines: readonly TaggedLine[], options: FactLineOptions & { tagCost: (tag: ExternalTag) => number }): TaggedLine[] {
  return pickFactLines(lines, options);
}

function pickFactLines(lines: readonly TaggedLine[], options: FactLineOptions & { tagCost?: (tag: ExternalTag) => number }): TaggedLine[] {
  const maxLineChars = options.maxLineChars ?? 300;
  const identifiersOf = options.identifiersOf ?? extractIdentifiers;
  const seen = new Set<string>();
  const picked: Array<{ line: string; rank: number; identifiers: string[]; tag?: ExternalTag }> = [];
  for (const { line: raw, tag } of lines) {
    const line = raw.trim();
    if (line === "") continue;
    if (options.knownLines?.has(line) === true) {
      options.onKnownLine?.(line);
      for (const identifier of identifiersOf(line)) seen.add(identifier);
      continue;
    }
    const error = isErrorLine(line);
    const fresh = identifiersOf(line).filter((identifier) => !seen.has(identifier) && !(options.isKnown?.(identifier) ?? false));
    for (const identifier of fresh) seen.add(identifier);
    if (!error && fresh.length === 0) continue;
    // A long line (JSON on one line, minified code) keeps a window around each of its new
    // identifiers that no earlier window of it covers: one window would keep the first fact only.
    const unshown = fresh.filter((identifier) => !(options.isShown?.(identifier) ?? false));
    const rank = error ? 0 : unshown.length === 0 ? 3 : unshown.every(isNumberIdentifier) ? 2 : 1;
    for (const window of windowsAround(line, fresh, maxLineChars)) picked.push({ line: window.text, rank, identifiers: window.identifiers, ...(tag ? { tag } : {}) });
  }
  // A tagged result's tags are paid once, by the first of its lines kept.
  const paid = new Set<string>();
  const costOf = (entry: (typeof picked)[number]) => {
    const tagCost = entry.tag === undefined || paid.has(entry.tag.nonce) || options.tagCost === undefined ? 0 : options.tagCost(entry.tag);
    return entry.line.length + 1 + tagCost;
  };
  const kept = keepByRank(picked, (entry) => entry.rank, costOf, options.maxChars, (entry) => {
    if (entry.tag) paid.add(entry.tag.nonce);
  });
  const facts = picked.filter((_, position) => kept.has(position));
  for (const entry of facts) for (const identifier of entry.identifiers) options.onShownIdentifier?.(identifier);
  return facts.map((entry) => (entry.tag ? { line: entry.line, tag: entry.tag } : { line: entry.line }));
}

/**
 * A line whose only identifiers are numbers (`2155\t        else:` of a numbered listing, a size
 * in a directory listing) and that reports no error: the weakest kind of fact line. Fact lines
 * and condensing keep these last, after the lines that name something.
 */
export function isNumberOnlyLine(line: string): boolean {
  const identifiers = extractIdentifiers(line);
  return !isErrorLine(line) && identifiers.length > 0 && identifiers.every(isNumberIdentifier);
}

// A number, with a unit or not (1074, 1,024, 3.5 GB, 42%): the "number" patterns of extract-identifiers.ts.
const NUMBER = /^\d[\d,]*(?:\.\d+)?\s?(?:[A-Za-zµ]+|%)?$/;

export function isNumberIdentifier(identifier: string): boolean {
  return NUMBER.test(identifier);
}

/** The pieces of a line kept for `identifiers`, each with the identifiers it shows with their context. */
function windowsAround(line: string, identifiers: readonly string[], maxChars: number): Array<{ text: string; identifiers: string[] }> {
  if (line.length <= maxChars || identifiers.length === 0) return [{ text: clipAround(line, identifiers[0], maxChars), identifiers: line.length <= maxChars ? [...identifiers] : [] }];
  const windows: Array<{ from: number; text: string; identifiers: string[] }> = [];
  for (const identifier of identifiers) {
    // Covered means with a third of a window of context on each side (or the line's end): a fact
    // cut off at a window's edge has lost what it was about.
    const at = line.indexOf(identifier);
    const from = Math.max(0, at - Math.floor(maxChars / 3));
    const to = Math.min(line.length, at + identifier.length + Math.floor(maxChars / 3));
    const covering = windows.find((window) => from >= window.from && to <= window.from + window.text.length);
    if (covering) {
      covering.identifiers.push(identifier);
      continue;
    }
    const text = clipAround(line, identifier, maxChars);
    windows.push({ from: line.indexOf(text), text, identifiers: [identifier] });
  }
  return windows.sort((a, b) => a.from - b.from);
}

function clipAround(line: string, identifier: string | undefined, maxChars: number): string {
  if (line.length <= maxChars) return line;
  const at = identifier === undefined ? 0 : Math.max(0, line.indexOf(identifier));
  const from = Math.min(Math.max(0, at - Math.floor((maxChars - (identifier?.length ?? 0)) / 2)), line.length - maxChars);
  return line.slice(from, from + maxChars);
}
