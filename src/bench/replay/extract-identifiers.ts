import { splitIdentifierTokens } from "../../context/compression/identifier-tokens.js";

/**
 * The kinds of identifier reference recall tracks: the things an agent copies from a tool result
 * into its next command or answer, and which a summary that paraphrases loses.
 */
export type IdentifierKind = "url" | "path" | "dotted" | "snake" | "camel" | "pascal" | "number";

// Each pattern is matched on its own, so one span can yield several identifiers (a path, the
// file name in it, the snake_case stem): recall counts each, as the model may copy any of them.
// Lookarounds instead of \b: `_` and `-` are word-ish in identifiers but not in \b's sense.
const PATTERNS: ReadonlyArray<readonly [IdentifierKind, RegExp]> = [
  ["url", /\bhttps?:\/\/[^\s"'`<>()[\]{}]+/g],
  ["path", /(?<![\w.~/-])(?:~|\.{1,2})?\/?[\w.~-]+(?:\/[\w.~-]+)+\/?/g],
  ["dotted", /(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?![\w])/g],
  ["snake", /(?<![\w])_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*(?![\w])/g],
  ["camel", /(?<![\w])[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+(?![\w])/g],
  ["pascal", /(?<![\w])[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*(?![\w])/g],
  ["number", /(?<![\w.])\d{3,}(?![\w])/g],
];

/** Shorter matches (`a.b`, `x_y`, `123`) are too common to say anything about memory. */
export const MIN_IDENTIFIER_LENGTH = 4;

export interface IdentifierMatch {
  identifier: string;
  kind: IdentifierKind;
}

/** Every identifier in `text` with its kind, each distinct (identifier, kind) once, in pattern order. */
export function matchIdentifiers(text: string): IdentifierMatch[] {
  const matches: IdentifierMatch[] = [];
  const seen = new Set<string>();
  // Bounded tokens keep matching linear in the text's length (see identifier-tokens.ts).
  const tokens = splitIdentifierTokens(text);
  for (const [kind, pattern] of PATTERNS) {
    for (const token of tokens) {
      for (const match of token.text.matchAll(pattern)) {
        const identifier = stripTrailingPunctuation(match[0]);
        if (identifier.length < MIN_IDENTIFIER_LENGTH) continue;
        const key = `${kind}\u0000${identifier}`;
        if (seen.has(key)) continue;
        seen.add(key);
        matches.push({ identifier, kind });
      }
    }
  }
  return matches;
}

/** The distinct identifiers in `text`, whatever their kind. */
export function extractIdentifiers(text: string): string[] {
  return [...new Set(matchIdentifiers(text).map((match) => match.identifier))];
}

/** Sentence punctuation that follows an identifier in prose ("see foo.py.") is not part of it. */
function stripTrailingPunctuation(value: string): string {
  let end = value.length;
  while (end > 0 && ".,:;".includes(value[end - 1]!)) end--;
  return value.slice(0, end);
}
