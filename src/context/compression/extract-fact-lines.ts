import { extractIdentifiers, isErrorLine } from "./extract-identifiers.js";

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
}

/**
 * The lines of a tool result worth keeping verbatim when the rest is cleared: every error line,
 * and for each identifier (path, name, number…) the first line it appears on — the fact a later
 * step needs, not just the name ("12: def compute_total(items):" rather than "compute_total").
 * Trimmed, in their original order; error lines first when the budget runs out.
 */
export function extractFactLines(text: string, options: FactLineOptions): string[] {
  const maxLineChars = options.maxLineChars ?? 300;
  const seen = new Set<string>();
  const picked: Array<{ order: number; line: string; error: boolean }> = [];
  for (const [order, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "") continue;
    if (options.knownLines?.has(line) === true) {
      options.onKnownLine?.(line);
      for (const identifier of extractIdentifiers(line)) seen.add(identifier);
      continue;
    }
    const error = isErrorLine(line);
    const fresh = extractIdentifiers(line).filter((identifier) => !seen.has(identifier) && !(options.isKnown?.(identifier) ?? false));
    for (const identifier of fresh) seen.add(identifier);
    if (!error && fresh.length === 0) continue;
    // A long line (JSON on one line, minified code) keeps a window around each of its new
    // identifiers that no earlier window of it covers: one window would keep the first fact only.
    for (const [piece, window] of windowsAround(line, fresh, maxLineChars).entries()) picked.push({ order: order + piece / (fresh.length + 1), line: window, error });
  }
  const kept = new Set<number>();
  let size = 0;
  for (const wanted of [true, false]) {
    for (const entry of picked) {
      if (entry.error !== wanted || size + entry.line.length + 1 > options.maxChars) continue;
      kept.add(entry.order);
      size += entry.line.length + 1;
    }
  }
  return picked.filter((entry) => kept.has(entry.order)).map((entry) => entry.line);
}

function windowsAround(line: string, identifiers: readonly string[], maxChars: number): string[] {
  if (line.length <= maxChars || identifiers.length === 0) return [clipAround(line, identifiers[0], maxChars)];
  const windows: Array<{ from: number; text: string }> = [];
  for (const identifier of identifiers) {
    // Covered means with a third of a window of context on each side (or the line's end): a fact
    // cut off at a window's edge has lost what it was about.
    const at = line.indexOf(identifier);
    const from = Math.max(0, at - Math.floor(maxChars / 3));
    const to = Math.min(line.length, at + identifier.length + Math.floor(maxChars / 3));
    if (windows.some((window) => from >= window.from && to <= window.from + window.text.length)) continue;
    const text = clipAround(line, identifier, maxChars);
    windows.push({ from: line.indexOf(text), text });
  }
  return windows.sort((a, b) => a.from - b.from).map((window) => window.text);
}

function clipAround(line: string, identifier: string | undefined, maxChars: number): string {
  if (line.length <= maxChars) return line;
  const at = identifier === undefined ? 0 : Math.max(0, line.indexOf(identifier));
  const from = Math.min(Math.max(0, at - Math.floor((maxChars - (identifier?.length ?? 0)) / 2)), line.length - maxChars);
  return line.slice(from, from + maxChars);
}
