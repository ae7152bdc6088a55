import { createLazyRequire } from "../../types/lazy-require.js";
import { readFileSync } from "node:fs";
import { ConfigError } from "../../types/errors.js";

// node:zlib is required by the first decompression, not when the module is loaded, like the other
// Node modules the tools use; a run's start gains little by it, as Node's fetch loads zlib at the
// first request anyway.
const requireFromHere = createLazyRequire(import.meta.url);
const zlib = () => requireFromHere("node:zlib") as typeof import("node:zlib");

/** Words a lexicon relates to one word: `close` ones mean the same or derive from it, `broader` ones are one level more general. */
export interface RelatedWords {
  close: readonly string[];
  broader: readonly string[];
}

/** Related words of a lowercase word (any inflection), or undefined when the lexicon does not know it. */
export type RelatedWordLookup = (word: string) => RelatedWords | undefined;

// WordNet 3.1's nouns and verbs (Princeton's WordNet license), opt-in for the tool search, cut to what the search reads by
// scripts/build-wordnet-table.mjs: 0.65 MB shipped in data/wordnet/ instead of the 30 MB database.
// From dist/tools/search/ and from src/tools/search/ alike, the data folder is three levels up.
const tableUrl = new URL("../../../data/wordnet/related-words.txt.br", import.meta.url);

/**
 * The table's text and where each line starts. Lines are sorted by word, so a word is found by
 * binary search: building a Map of its 73,000 words took 150 ms, this takes 5 ms after decompression.
 */
interface Table {
  text: string;
  lineStarts: Int32Array;
}

let table: Table | undefined;
/** How long the first read of the shipped table took (ms), for `ctxkit bench tool-search`. */
let tableLoadMs: number | undefined;

/**
 * The shipped WordNet lookup, for callers who opt in (`relatedWordWeight`/`broaderWordWeight` above 0;
 * both are 0 by default). The table is read on the first call (40–110 ms cold, most of it Brotli;
 * never when the search is built without it), so importing the search costs nothing. Throws a
 * `ConfigError` when the table cannot be read; the tool-search index then searches without it.
 */
export const wordNetRelatedWords: RelatedWordLookup = (word) => {
  if (table === undefined) {
    const started = performance.now();
    table = readTable(tableUrl);
    tableLoadMs = performance.now() - started;
  }
  return relatedWordsIn(table, word);
};

/**
 * A lookup over a Brotli-compressed table file in the shipped format, read on its first call (the
 * shipped one is `wordNetRelatedWords`). Throws a `ConfigError` when the file cannot be read or decompressed.
 */
export function createRelatedWordFileLookup(url: URL): RelatedWordLookup {
  let parsed: Table | undefined;
  return (word) => relatedWordsIn((parsed ??= readTable(url)), word);
}

/** The shipped table's size and how long its first read took, once a search has read it. */
export function wordNetTableStats(): { words: number; characters: number; loadMs: number } | undefined {
  return table === undefined || tableLoadMs === undefined ? undefined : { words: table.lineStarts.length, characters: table.text.length, loadMs: tableLoadMs };
}

/** A lookup over a table in the shipped format (`word\tclose words\tbroader words` per line, sorted by word). */
export function createRelatedWordLookup(text: string): RelatedWordLookup {
  const parsed = parseTable(text);
  return (word) => relatedWordsIn(parsed, word);
}

function readTable(url: URL): Table {
  let text: string;
  try {
    text = zlib().brotliDecompressSync(readFileSync(url)).toString("utf8");
  } catch (error) {
    throw new ConfigError("dependency_missing", `ctxkit's WordNet table (${url.pathname}) could not be read: ${error instanceof Error ? error.message : String(error)}. Reinstall ctxkit (the file ships in its data/wordnet folder), or leave relatedWordWeight and broaderWordWeight at 0 (the default) so the tool search does not read it.`, { cause: error });
  }
  return parseTable(text);
}

function parseTable(text: string): Table {
  const starts: number[] = [];
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf("\n", at);
    if (end !== at) starts.push(at);
    at = end === -1 ? text.length : end + 1;
  }
  return { text, lineStarts: Int32Array.from(starts) };
}

/** The related words of `word`'s line (after the word and its tab), or undefined. */
function lineOf({ text, lineStarts }: Table, word: string): string | undefined {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const start = lineStarts[middle]!;
    const tab = text.indexOf("\t", start);
    const key = text.slice(start, tab);
    if (key === word) {
      const end = text.indexOf("\n", tab);
      return text.slice(tab + 1, end === -1 ? text.length : end);
    }
    if (key < word) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

const cache = new WeakMap<Table, Map<string, RelatedWords | undefined>>();

function relatedWordsIn(parsed: Table, word: string): RelatedWords | undefined {
  let cached = cache.get(parsed);
  if (cached === undefined) cache.set(parsed, (cached = new Map()));
  if (cached.has(word)) return cached.get(word);
  const close = new Set<string>();
  const broader = new Set<string>();
  let known = false;
  for (const base of baseForms(word)) {
    const line = lineOf(parsed, base);
    if (line === undefined) continue;
    known = true;
    const [closeWords = "", broaderWords = ""] = line.split("\t");
    for (const related of closeWords.split(" ")) if (related !== "" && related !== word) close.add(related);
    for (const related of broaderWords.split(" ")) if (related !== "" && related !== word) broader.add(related);
  }
  const found = known ? { close: [...close], broader: [...broader] } : undefined;
  // Bounded: a model could send many distinct words.
  if (cached.size >= 10_000) cached.clear();
  cached.set(word, found);
  return found;
}

/**
 * WordNet's own detachment rules (its `morphy`, without the exception lists): the forms a noun or a
 * verb may have had before an ending was added ("approved" → approve, approv; "headphones" → headphone).
 */
const detachments: ReadonlyArray<[string, string]> = [
  ["s", ""], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"], ["ies", "y"],
  ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""],
];

export function baseForms(word: string): string[] {
  const forms = new Set([word]);
  for (const [ending, replacement] of detachments) {
    if (word.length > ending.length + 1 && word.endsWith(ending)) forms.add(word.slice(0, -ending.length) + replacement);
  }
  return [...forms];
}
