import { extractIdentifiers, isErrorLine } from "./extract-identifiers.js";
import type { SummaryInput } from "./summarizer.js";
import { identifierLines, identifiersBySource } from "./tagged-identifiers.js";
import { renderTaggedLines, splitTaggedText, tagLinesCost, type ExternalTag, type TaggedLine } from "./tagged-lines.js";

/** Rough characters per token, to turn a token budget into a text length without a tokenizer. */
export const CHARS_PER_TOKEN = 4;

/** Share of the budget for selected lines; the rest lists identifiers the lines did not contain. */
const LINE_SHARE = 0.7;
const MAX_SEGMENT_CHARS = 300;
const MIN_SCORE = 2;

const STOPWORDS = new Set(
  "that this with from have what when where which will would there their they them then than into about after before could should these those while were been being also only some such very more most other just like over your you are was for and the not but can all any how who why its it's does did has had our out use using used".split(" "),
);

interface Segment {
  source: number;
  position: number;
  text: string;
  score: number;
  /** The tags of the result it came from (see `SummarySource.external`): it is shown between them. */
  tag?: ExternalTag;
}

/**
 * A deterministic extractive summary of tool output: the lines that carry identifiers, match the
 * task and the query, or report errors, within the budget, in their original order; repeated lines
 * (the same fact on several pages) once; lines already in `known` not again; then the identifiers
 * the chosen lines left out, a tagged result's between its tags (see `identifiersBySource`).
 * Citations append each line's source.
 */
export function summarizeExtractively(input: SummaryInput): string {
  const maxChars = Math.max(200, input.maxTokens * CHARS_PER_TOKEN);
  // URLs in a query name where to look, not what to look for ("news", "page", "html" match boilerplate).
  const terms = keywordsOf(`${input.task ?? ""} ${(input.query ?? "").replace(/\b\w+:\/\/\S+/g, " ")}`);
  const known = new Set((input.known ?? "").split("\n").map(normalize).filter((line) => line.length > 0));
  const seen = new Set<string>();
  const segments: Segment[] = [];
  for (const [sourceIndex, source] of input.sources.entries()) {
    let position = 0;
    // A tagged result's tag lines are no segments: its chosen lines get the tags again, around them.
    const parts = source.external ? splitTaggedText(source.text, source.external) : [{ line: source.text }];
    for (const part of parts) {
      for (const text of segmentsOf(part.line)) {
        const key = normalize(text);
        if (key.length === 0 || seen.has(key) || known.has(key)) continue;
        seen.add(key);
        segments.push({ source: sourceIndex, position, text, score: scoreSegment(text, position, terms, source.isError === true), ...(part.tag ? { tag: part.tag } : {}) });
        position += 1;
      }
    }
  }

  const chosen: Segment[] = [];
  let used = 0;
  const lineBudget = maxChars * LINE_SHARE;
  const paidTags = new Set<string>();
  for (const segment of [...segments].sort((left, right) => right.score - left.score)) {
    // Below this a line carries nothing to look up later; the room is better spent on identifiers.
    if (segment.score < MIN_SCORE) break;
    const tagCost = segment.tag === undefined || paidTags.has(segment.tag.nonce) ? 0 : tagLinesCost(segment.tag, "");
    const cost = segment.text.length + 1 + citationOf(input, segment.source).length + tagCost;
    if (used + cost > lineBudget) continue;
    chosen.push(segment);
    if (segment.tag) paidTags.add(segment.tag.nonce);
    used += cost;
  }
  chosen.sort((left, right) => left.source - right.source || left.position - right.position);

  const lines: string[] = [];
  let currentSource = -1;
  let run: TaggedLine[] = [];
  const flush = () => {
    lines.push(...renderTaggedLines(run, ""));
    run = [];
  };
  for (const segment of chosen) {
    if (input.sources.length > 1 && !input.citations && segment.source !== currentSource) {
      flush();
      lines.push(`From ${input.sources[segment.source]!.label}:`);
      currentSource = segment.source;
    }
    run.push({ line: `${segment.text}${citationOf(input, segment.source)}`, ...(segment.tag ? { tag: segment.tag } : {}) });
  }
  // The identifiers the chosen lines left out; a tagged result's between its tags (in its block
  // when its lines end the body), so a page's link never reads as the harness's.
  const body = [...lines, ...renderTaggedLines(run, "")].join("\n");
  run.push(...identifierLines(identifiersBySource(input.sources), "Identifiers: ", Math.max(0, maxChars - body.length - 6), (identifier) => body.includes(identifier)));
  flush();
  return lines.join("\n");
}

function citationOf(input: SummaryInput, sourceIndex: number): string {
  if (!input.citations) return "";
  const source = input.sources[sourceIndex]!;
  return ` [source: ${source.citation ?? source.label}]`;
}

/** Lines, with long lines cut into sentences (minified pages, long paragraphs). */
function segmentsOf(text: string): string[] {
  const segments: string[] = [];
  for (const rawLine of text.split("\n")) {
    const line = rawLine.replace(/\s+/g, " ").trim();
    if (line === "") continue;
    if (line.length <= MAX_SEGMENT_CHARS) {
      segments.push(line);
      continue;
    }
    for (const sentence of line.split(/(?<=[.!?])\s+/)) {
      for (let offset = 0; offset < sentence.length; offset += MAX_SEGMENT_CHARS) segments.push(sentence.slice(offset, offset + MAX_SEGMENT_CHARS));
    }
  }
  return segments;
}

function scoreSegment(text: string, position: number, terms: ReadonlySet<string>, fromError: boolean): number {
  const identifiers = Math.min(5, extractIdentifiers(text, 5).length);
  let termHits = 0;
  for (const word of keywordsOf(text)) if (terms.has(word)) termHits += 1;
  // Proper nouns (names, organisations, months) mark facts; filler prose has few.
  const names = Math.min(4, (text.slice(1).match(/(?<![.!?]\s)\b[A-Z][a-z]+/g) ?? []).length);
  let score = 1 + 2 * identifiers + 3 * Math.min(termHits, 5) + names;
  if (isErrorLine(text)) score += fromError ? 10 : 6;
  if (/\d/.test(text)) score += 1;
  // Navigation, footers and separators: short lines with nothing to look up later.
  if (text.length < 20 && identifiers === 0) score -= 2;
  if (position < 3) score += 1;
  return score;
}

export function keywordsOf(text: string): Set<string> {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}_]{4,}/gu)) {
    if (!STOPWORDS.has(match[0])) words.add(match[0]);
  }
  return words;
}

function normalize(line: string): string {
  return line.replace(/\s+/g, " ").trim().toLowerCase();
}
