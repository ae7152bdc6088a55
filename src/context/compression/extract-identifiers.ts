import { splitIdentifierTokens, type IdentifierToken } from "./identifier-tokens.js";

/**
 * What a compressed text must keep verbatim: the names a later step will type again. Each pattern is
 * matched against one bounded token at a time (see identifier-tokens.ts), never the whole text, so
 * extraction stays linear in the text's length whatever the patterns backtrack on.
 */
const PATTERNS: Array<{ kind: "url" | "path" | "name" | "number"; pattern: RegExp; spansOneSpace?: boolean }> = [
  { kind: "url", pattern: /\b(?:https?|ftp|file):\/\/[^\s"'`<>()[\]{}]+/g },
  // Paths with a slash: src/a.ts, /usr/lib/x, ./scripts/run.sh, ~/.config/app — not the closing
  // tags of markup (`</output>`), which tool output wraps around every result.
  { kind: "path", pattern: /(?:~|\.{1,2})?(?:\/?[\w@+.-]+)?(?:\/[\w@+.-]+)+\/?/g },
  // Numbers with units: 120 ms, 3.5 GB, 42%, 1,024 tokens
  { kind: "number", pattern: /\b\d[\d,]*(?:\.\d+)?\s?(?:ms|µs|ns|s|sec|seconds|min|minutes|h|hours|KB|KiB|MB|MiB|GB|GiB|TB|kB|B|bytes|tokens|chars|lines|%)(?![\w])/g, spansOneSpace: true },
  // Commit hashes and hex ids (at least one digit and one letter, 7–64 characters)
  { kind: "name", pattern: /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/g },
  // Ticket-like ids: ABC-123, CVE-2024-1234
  { kind: "name", pattern: /\b[A-Z][A-Z0-9]+-\d+(?:-\d+)*\b/g },
  // Dotted names: module.attr, file.py, a.b.c()
  { kind: "name", pattern: /\b[A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*)+\b/g },
  // snake_case and dunder names: handle_callback, __init__, MAX_SIZE
  { kind: "name", pattern: /\b_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*\b|\b__[A-Za-z0-9]+__\b/g },
  // camelCase and PascalCase with two humps: separabilityMatrix, CompoundModel
  { kind: "name", pattern: /\b[a-z]+[a-z0-9]*(?:[A-Z][a-z0-9]*)+\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b/g },
  // Numbers of three or more digits: line numbers, ports, years, ids
  { kind: "number", pattern: /\b\d{3,}\b/g },
];

// Error words are often glued to a name (AssertionError, ValueError, ENOENT-style prefixes), so no \b there.
const ERROR_LINE = /error|exception|traceback|fatal|panic|\b(?:failed|failure|denied|not found|no such|cannot|can't|unable|invalid|refused|timed? ?out|segmentation fault)\b/i;

const MIN_LENGTH = 4;
const TRAILING_PUNCTUATION = /[.,:;]+$/;

/**
 * The identifiers in `text`, deduplicated, most useful first: by how often they occur, URLs and
 * paths counting double (ties keep their first-appearance order). `limit` caps how many.
 */
export function extractIdentifiers(text: string, limit = Number.POSITIVE_INFINITY): string[] {
  const found = new Map<string, { score: number; first: number }>();
  let order = 0;
  const tokens = splitIdentifierTokens(text);
  for (const { kind, pattern, spansOneSpace } of PATTERNS) {
    for (const token of tokens) {
      const subject = spansOneSpace === true ? token.textWithNext : token.text;
      for (const match of matchesInToken(token.text, subject, pattern)) {
        const value = match.trim().replace(TRAILING_PUNCTUATION, "");
        if (value.length < MIN_LENGTH || (kind === "path" && (!value.includes("/") || isClosingTag(text, token, match)))) continue;
        const entry = found.get(value);
        // URLs and paths weigh double: they are what a later step opens again.
        const weight = kind === "url" || kind === "path" ? 2 : 1;
        if (entry) entry.score += weight;
        else found.set(value, { score: weight, first: order++ });
      }
    }
  }
  return [...found.entries()]
    .sort(([, left], [, right]) => right.score - left.score || left.first - right.first)
    .slice(0, limit)
    .map(([value]) => value);
}

/** `/output` in `</output>`: a match at the start of a token right after `<`. */
function isClosingTag(text: string, token: IdentifierToken, match: string): boolean {
  return token.start > 0 && text.charCodeAt(token.start - 1) === LESS_THAN && match.startsWith("/") && token.text.startsWith(match);
}

const LESS_THAN = "<".charCodeAt(0);

/** Matches that start inside the token (a match in `subject` may run on into the next token). */
function matchesInToken(token: string, subject: string, pattern: RegExp): string[] {
  const matches: string[] = [];
  for (const match of subject.matchAll(pattern)) {
    if (match.index >= token.length) break;
    matches.push(match[0]);
  }
  return matches;
}

/** Lines that report a failure, trimmed and deduplicated (the reasons must survive compression). */
export function extractErrorLines(text: string, limit = 8, maxChars = 300): string[] {
  const lines: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || !ERROR_LINE.test(line)) continue;
    const cut = line.length > maxChars ? `${line.slice(0, maxChars)}…` : line;
    if (!lines.includes(cut)) lines.push(cut);
    if (lines.length >= limit) break;
  }
  return lines;
}

export function isErrorLine(line: string): boolean {
  return ERROR_LINE.test(line);
}

/** Joins identifiers into a line of at most `maxChars` characters (the most useful come first). */
export function formatIdentifierList(identifiers: readonly string[], maxChars: number): string {
  let line = "";
  for (const identifier of identifiers) {
    // A part of an identifier already listed (a URL's host or path) adds nothing.
    if (line.includes(identifier)) continue;
    const next = line === "" ? identifier : `${line}, ${identifier}`;
    if (next.length > maxChars) break;
    line = next;
  }
  return line;
}
