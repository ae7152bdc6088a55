import { createLazyRequire } from "../../types/lazy-require.js";
import type { ToolDefinition } from "../../types/index.js";
import { buildAbbreviationTable, buildSynonymTable } from "./action-synonyms.js";
import { toSearchTerms } from "./search-terms.js";
import { stemWord } from "./stem-word.js";
import { queryHintWords, withoutAddressNoise } from "./query-hints.js";
import { createTypoCorrector } from "./typo-corrector.js";
import { createWordNeighbourFinder, type WordVectorLookup } from "./word-vector-neighbours.js";
import { baseForms, wordNetRelatedWords, type RelatedWordLookup } from "./wordnet-related-words.js";

// fastest-levenshtein is loaded by the first fuzzy lookup, not when the index module is imported (the CLI's start).
const requireFromHere = createLazyRequire(import.meta.url);
const levenshtein = (): typeof import("fastest-levenshtein") => requireFromHere("fastest-levenshtein") as typeof import("fastest-levenshtein");

/**
 * How the index weighs and matches terms. The defaults were tuned by `ctxkit bench tool-search` on
 * the tune half of its queries over real MCP servers' catalogs (the measure half reports them).
 */
export interface ToolSearchIndexOptions {
  /** Weight of a match per field (default name 3, description 1, parameter names 1, parameter descriptions 0.5). */
  boost?: { name?: number; description?: number; parameters?: number; parameterDescriptions?: number };
  /** Levenshtein matching, edits allowed as a share of a term's length (default 0: `typoWeight` does it better). */
  fuzzy?: number;
  /** Whether a query term also matches words it begins ("reserv" finds "reservation"; default false). */
  prefix?: boolean;
  /** Reduce words to stems, so "creating" meets "create" and "entities" meets "entity" (default true). */
  stemming?: boolean;
  /** Weight of a query word's synonyms ("add" → create; default 0.4; 0 turns them off). */
  synonymWeight?: number;
  /** Weight of a misspelt word's corrections one edit away, swaps included (default 0.8; 0 turns it off). */
  typoWeight?: number;
  /** BM25 length normalisation: 0 ignores a field's length, 1 divides by it fully (default 0.75). */
  lengthNormalisation?: number;
  /** Bonus for the share of a tool name's words the query matched: score × (1 + nameCoverage × share) (default 1). */
  nameCoverage?: number;
  /** Weight of the word a file name or a URL in the query implies ("notes.txt" → file, "example.com" → url; default 0.5). */
  hintWeight?: number;
  /**
   * Weight of a word WordNet gives as meaning the same as a query word or derived from it ("remove" →
   * withdraw, "approve" → approval). Default 0: WordNet is opt-in. It gained on the tune half (tuned
   * there at 0.3, with `broaderWordWeight` 0.2) but not on held-out queries: the first two sets of
   * the measure half kept MRR 0.813 with and without it, round three found 34 of 42 in the first 5
   * instead of 36, others' queries MRR 0.902 instead of 0.905.
   */
  relatedWordWeight?: number;
  /** Weight of a word WordNet gives as one level more general than a query word ("swap" → exchange; default 0, opt-in: see `relatedWordWeight`). */
  broaderWordWeight?: number;
  /** Where related words come from (default: WordNet 3.1's nouns and verbs, shipped in data/wordnet/ and read on the first search that needs them). */
  relatedWords?: RelatedWordLookup;
  /**
   * Told when related words were asked for but their lookup failed (the shipped table missing or
   * corrupt): the index then searches without them, instead of failing every search.
   */
  onWarning?: (warning: { code: "related_words_unavailable"; message: string }) => void;
  /** Static word vectors (optional; none ship): a query word also searches the catalog's nearest words. */
  wordVectors?: WordVectorLookup;
  /** Weight of a word-vector neighbour, times its cosine similarity (default 0.5). */
  vectorWeight?: number;
  /** Least cosine similarity for a neighbour (default 0.45). */
  vectorMinSimilarity?: number;
  /** Most neighbours per query word (default 3). */
  vectorNeighbours?: number;
}

export interface ToolSearchHit {
  name: string;
  score: number;
}

/** A BM25F index over a fixed set of tool definitions. */
export interface ToolSearchIndex {
  /** The best matches for a query, best first (at most `limit`). */
  search(query: string, limit: number): ToolSearchHit[];
  readonly size: number;
}

export const defaultToolSearchIndexOptions: Required<Omit<ToolSearchIndexOptions, "boost" | "wordVectors" | "relatedWords" | "onWarning">> & { boost: Required<NonNullable<ToolSearchIndexOptions["boost"]>> } = {
  boost: { name: 3, description: 1, parameters: 1, parameterDescriptions: 0.5 },
  fuzzy: 0,
  prefix: false,
  stemming: true,
  synonymWeight: 0.4,
  typoWeight: 0.8,
  lengthNormalisation: 0.75,
  nameCoverage: 1,
  hintWeight: 0.5,
  relatedWordWeight: 0,
  broaderWordWeight: 0,
  vectorWeight: 0.5,
  vectorMinSimilarity: 0.45,
  vectorNeighbours: 3,
};

/**
 * WordNet's weights as tuned on the tune half, for a caller who opts in
 * (`createToolSearchIndex(tools, { ...wordNetWeights })`); off by default, see `relatedWordWeight`.
 */
export const wordNetWeights = { relatedWordWeight: 0.3, broaderWordWeight: 0.2 } as const satisfies ToolSearchIndexOptions;

/** Longest query the index reads; a model could send a whole document as the query. */
const maxQueryChars = 2_000;
/** Most distinct words of its own a query is searched for. */
const maxQueryTerms = 64;
/**
 * Most distinct terms a query is searched for, synonyms, corrections and related words included.
 * A query's own words take their places first: with one shared cap, the related words of a long
 * message's first words crowded out its later words (τ-bench's first user messages lost 2 points).
 */
const maxSearchTerms = 256;

/** BM25 term-frequency saturation (the usual 1.2). */
const saturation = 1.2;
/** Weight of a prefix match ("reserv" → "reservation") against an exact one. */
const prefixWeight = 0.4;
/** Weight of a Levenshtein (`fuzzy`) match against an exact one. */
const fuzzyWeight = 0.45;

const fields = ["name", "description", "parameters", "parameterDescriptions"] as const;

/** Per term: the tools holding it and what the term adds to each one's score (BM25F, precomputed). */
interface Posting {
  tools: Int32Array;
  scores: Float64Array;
  /** Whether the term is a word of that tool's name (for `nameCoverage`). */
  inName: Uint8Array;
}

/**
 * Builds a BM25F index over tool names, descriptions, parameter names and parameter descriptions.
 * Identifiers are split at `_`, `-`, `.` and camelCase humps ("getUserDetails" matches "user"),
 * words are stemmed, and a query is widened by its words' synonyms and abbreviations and by
 * corrections of words the catalog does not have. Every term's contribution to every tool is
 * computed once here, so a search only adds numbers (well under a millisecond at 500 tools).
 */
export function createToolSearchIndex(tools: readonly ToolDefinition[], options: ToolSearchIndexOptions = {}): ToolSearchIndex {
  const settings = { ...defaultToolSearchIndexOptions, ...options, boost: { ...defaultToolSearchIndexOptions.boost, ...options.boost } };
  const termOptions = { stemming: settings.stemming };
  // Typos are corrected against the words as written ("reservaton" → "reservation"), then stemmed.
  const stemOf = new Map<string, string>();
  const terms = (text: string) =>
    toSearchTerms(text, { stemming: false }).map((word) => {
      const stem = settings.stemming ? stemWord(word) : word;
      stemOf.set(word, stem);
      return stem;
    });
  const documents = tools.map((tool) => ({
    name: terms(tool.name),
    description: terms(tool.description),
    parameters: terms(parameterNames(tool.parameters).join(" ")),
    parameterDescriptions: terms(parameterDescriptions(tool.parameters).join(" ")),
  }));
  const postings = buildPostings(documents, settings.boost, settings.lengthNormalisation);
  const vocabulary = [...postings.keys()].sort();
  const nameSizes = tools.map((tool) => new Set(toSearchTerms(tool.name.replace(/^mcp__.+?__/, ""), termOptions)).size);
  const synonyms = settings.synonymWeight > 0 ? stemTable(buildSynonymTable(), settings.stemming) : new Map<string, string[]>();
  const abbreviations = stemTable(buildAbbreviationTable(), settings.stemming);
  const corrector = settings.typoWeight > 0 ? createTypoCorrector(stemOf.keys()) : undefined;
  let lexicon = settings.relatedWordWeight > 0 || settings.broaderWordWeight > 0 ? (options.relatedWords ?? wordNetRelatedWords) : undefined;
  /** The lexicon's related words of a word; a lexicon that fails (a missing table) is dropped, once, with a warning. */
  const relatedOf = (word: string) => {
    try {
      return lexicon?.(word);
    } catch (error) {
      lexicon = undefined;
      const reason = error instanceof Error ? error.message : String(error);
      options.onWarning?.({ code: "related_words_unavailable", message: `Tool search goes on without related words: ${reason}` });
      return undefined;
    }
  };
  const stemmed = (word: string) => (settings.stemming ? stemWord(word) : word);
  /** A query word's (or two adjacent words') related words that the catalog has, below the word's own weight. */
  const weighRelated = (word: string, weigh: (term: string, weight: number) => void) => {
    const related = relatedOf(word);
    if (related === undefined) return;
    for (const [words, weight] of [[related.close, settings.relatedWordWeight], [related.broader, settings.broaderWordWeight]] as const) {
      if (weight <= 0) continue;
      for (const relatedWord of words) {
        const term = stemOf.get(relatedWord) ?? stemmed(relatedWord);
        if (postings.has(term)) weigh(term, weight);
      }
    }
  };
  const vectorNeighbours = options.wordVectors !== undefined && settings.vectorWeight > 0 ? createWordNeighbourFinder(stemOf.keys(), options.wordVectors) : undefined;
  return {
    size: tools.length,
    search(query, limit) {
      if (limit <= 0) return [];
      const text = query.slice(0, maxQueryChars);
      const words = lowercaseWords(text);
      const weights = new Map<string, number>();
      const weigh = (term: string, weight: number) => {
        if (weights.size >= maxSearchTerms && !weights.has(term)) return;
        weights.set(term, Math.max(weight, weights.get(term) ?? 0));
      };
      // "notes.txt", "https://example.com": what the query names says which kind of tool it wants.
      if (settings.hintWeight > 0) for (const hint of queryHintWords(text)) weigh(settings.stemming ? stemWord(hint) : hint, settings.hintWeight);
      const queryWords = toSearchTerms(withoutAddressNoise(text), { stemming: false });
      for (const word of queryWords) if (weights.size < maxQueryTerms) weigh(stemmed(word), 1);
      for (const word of queryWords) {
        const term = settings.stemming ? stemWord(word) : word;
        weigh(term, 1);
        for (const longForm of abbreviations.get(term) ?? []) weigh(longForm, 1);
        const corrections = postings.has(term) || stemOf.has(word) ? [] : (corrector?.correct(word) ?? []).map((correction) => stemOf.get(correction) ?? correction);
        for (const correction of corrections) weigh(correction, settings.typoWeight);
        // "datasource", "filename": two catalog words typed as one, a missing space weighed as a typo.
        if (settings.typoWeight > 0 && !postings.has(term) && !stemOf.has(word)) for (const part of splitIntoKnownWords(word, stemOf)) weigh(part, settings.typoWeight);
        for (const known of [term, ...corrections]) for (const synonym of synonyms.get(known) ?? []) weigh(synonym, settings.synonymWeight * (known === term ? 1 : settings.typoWeight));
        if (settings.prefix && term.length >= 3) for (const word of wordsStartingWith(vocabulary, term)) weigh(word, prefixWeight);
        // Every word, known to the catalog or not: widening only unknown words found less on the tune half.
        if (lexicon !== undefined) weighRelated(word, weigh);
        // Only for a word the catalog does not have ("booking", "voucher"): a word it has is matched
        // already, and widening it too added more wrong tools than right ones on the tune half.
        const unknown = !postings.has(term) && !stemOf.has(word);
        for (const { word: neighbour, similarity } of (unknown ? vectorNeighbours : undefined)?.neighbours(word, settings.vectorNeighbours, settings.vectorMinSimilarity) ?? []) {
          weigh(stemOf.get(neighbour) ?? neighbour, settings.vectorWeight * similarity);
        }
        if (settings.fuzzy > 0 && !postings.has(term)) for (const word of fuzzyMatches(vocabulary, term, settings.fuzzy)) weigh(word, fuzzyWeight);
      }
      // "look up", "go to", "file name": two words typed apart that the catalog or the synonyms write as one.
      for (let index = 1; index < words.length; index += 1) {
        const compound = stemmed(words[index - 1]! + words[index]!);
        if (postings.has(compound)) weigh(compound, 1);
        for (const synonym of synonyms.get(compound) ?? []) weigh(synonym, settings.synonymWeight);
      }
      // "send back", "call off", "get rid of": two or three words WordNet holds as one ("call_off"),
      // widened by what it relates to that phrase; the first word carries the ending ("called off").
      // (Weighing the phrase's own words less, as a phrase means something else than its parts, lost on the tune half.)
      for (let index = 0; lexicon !== undefined && index < words.length - 1; index += 1) {
        for (const length of [3, 2]) {
          if (index + length > words.length) continue;
          const rest = words.slice(index + 1, index + length).join("_");
          const phrase = baseForms(words[index]!).map((base) => `${base}_${rest}`).find((candidate) => relatedOf(candidate) !== undefined);
          if (phrase !== undefined) weighRelated(phrase, weigh);
        }
      }
      const scores = new Float64Array(tools.length);
      const nameHits = new Uint16Array(tools.length);
      for (const [term, weight] of weights) {
        const posting = postings.get(term);
        if (posting === undefined) continue;
        for (let index = 0; index < posting.tools.length; index += 1) {
          const tool = posting.tools[index]!;
          scores[tool] = scores[tool]! + weight * posting.scores[index]!;
          nameHits[tool] = nameHits[tool]! + posting.inName[index]!;
        }
      }
      // The best `limit` tools, kept sorted as they come (limit is small; no sort of the whole catalog).
      const best: Array<{ tool: number; score: number }> = [];
      for (let tool = 0; tool < tools.length; tool += 1) {
        if (scores[tool]! <= 0) continue;
        // A tool whose name the query covers ("make a new repo" → create + repository) beats one that
        // shares only the verb (create_branch): BM25 alone scores both alike for "create".
        const coverage = nameSizes[tool]! === 0 ? 0 : Math.min(1, nameHits[tool]! / nameSizes[tool]!);
        const score = scores[tool]! * (1 + settings.nameCoverage * coverage);
        if (best.length === limit && score <= best[best.length - 1]!.score) continue;
        let at = best.length;
        while (at > 0 && best[at - 1]!.score < score) at -= 1;
        best.splice(at, 0, { tool, score });
        if (best.length > limit) best.pop();
      }
      return best.map((hit) => ({ name: tools[hit.tool]!.name, score: hit.score }));
    },
  };
}

type FieldTerms = Record<(typeof fields)[number], string[]>;

function buildPostings(documents: readonly FieldTerms[], boost: Record<(typeof fields)[number], number>, lengthNormalisation: number): Map<string, Posting> {
  const averageLength = Object.fromEntries(fields.map((field) => [field, Math.max(1, documents.reduce((sum, document) => sum + document[field].length, 0) / Math.max(1, documents.length))])) as Record<(typeof fields)[number], number>;
  // BM25F: a term's frequencies are weighed per field and length-normalised per field, then saturated once.
  const weighted = new Map<string, Map<number, { frequency: number; inName: boolean }>>();
  documents.forEach((document, tool) => {
    for (const field of fields) {
      const norm = 1 - lengthNormalisation + (lengthNormalisation * document[field].length) / averageLength[field];
      for (const term of document[field]) {
        const byTool = weighted.get(term) ?? new Map<number, { frequency: number; inName: boolean }>();
        weighted.set(term, byTool);
        const entry = byTool.get(tool) ?? { frequency: 0, inName: false };
        entry.frequency += boost[field] / norm;
        if (field === "name") entry.inName = true;
        byTool.set(tool, entry);
      }
    }
  });
  const postings = new Map<string, Posting>();
  for (const [term, byTool] of weighted) {
    const idf = Math.log(1 + (documents.length - byTool.size + 0.5) / (byTool.size + 0.5));
    const entries = [...byTool].filter(([, entry]) => entry.frequency > 0);
    if (entries.length === 0) continue;
    postings.set(term, {
      tools: Int32Array.from(entries, ([tool]) => tool),
      scores: Float64Array.from(entries, ([, entry]) => (idf * entry.frequency * (saturation + 1)) / (entry.frequency + saturation)),
      inName: Uint8Array.from(entries, ([, entry]) => (entry.inName ? 1 : 0)),
    });
  }
  return postings;
}

/** Words of a sorted vocabulary that begin with `prefix` (longer than it), at most 20. */
function wordsStartingWith(vocabulary: readonly string[], prefix: string): string[] {
  let low = 0;
  let high = vocabulary.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (vocabulary[middle]! < prefix) low = middle + 1;
    else high = middle;
  }
  const words: string[] = [];
  for (let index = low; index < vocabulary.length && words.length < 20 && vocabulary[index]!.startsWith(prefix); index += 1) {
    if (vocabulary[index] !== prefix) words.push(vocabulary[index]!);
  }
  return words;
}

/** Words within `share × length` Levenshtein edits of `term` (minisearch's old `fuzzy` meaning). */
function fuzzyMatches(vocabulary: readonly string[], term: string, share: number): string[] {
  const maxDistance = Math.round(term.length * share);
  if (maxDistance === 0) return [];
  const { distance } = levenshtein();
  return vocabulary.filter((word) => word !== term && Math.abs(word.length - term.length) <= maxDistance && distance(word, term) <= maxDistance).slice(0, 20);
}

/** Shortest part a word is split into: "a" + "dd" must not turn "add" into two words. */
const minSplitPartChars = 3;

/**
 * The stems of the two catalog words (as written) an unknown word is made of ("datasource" →
 * data + source), for the one split whose shorter part is longest; none when no split is.
 */
export function splitIntoKnownWords(word: string, stemOf: ReadonlyMap<string, string>): string[] {
  let best: [string, string] | undefined;
  let bestShorter = 0;
  for (let at = minSplitPartChars; at <= word.length - minSplitPartChars; at += 1) {
    const left = stemOf.get(word.slice(0, at));
    const right = stemOf.get(word.slice(at));
    const shorter = Math.min(at, word.length - at);
    if (left !== undefined && right !== undefined && shorter > bestShorter) {
      best = [left, right];
      bestShorter = shorter;
    }
  }
  return best ?? [];
}

/** A query's words, lowercase, stop words kept ("go to" and "get rid of" are read as phrases). */
function lowercaseWords(query: string): string[] {
  return query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== "").slice(0, maxQueryTerms);
}

/** A word table with its words stemmed as the index stems text. */
function stemTable(table: Map<string, string[]>, stemming: boolean): Map<string, string[]> {
  const stemmed = new Map<string, string[]>();
  for (const [word, others] of table) {
    const key = stemming ? stemWord(word) : word;
    const merged = new Set([...(stemmed.get(key) ?? []), ...others.map((other) => (stemming ? stemWord(other) : other))]);
    merged.delete(key);
    stemmed.set(key, [...merged]);
  }
  return stemmed;
}

/** The names of a schema's properties, nested objects and array items included (bounded depth). */
export function parameterNames(schema: unknown, depth = 0): string[] {
  if (depth > 4 || schema === null || typeof schema !== "object") return [];
  const node = schema as { properties?: unknown; items?: unknown };
  const names: string[] = [];
  if (node.properties !== null && typeof node.properties === "object") {
    for (const [name, child] of Object.entries(node.properties as Record<string, unknown>)) {
      names.push(name, ...parameterNames(child, depth + 1));
    }
  }
  if (node.items !== undefined) names.push(...parameterNames(node.items, depth + 1));
  return names;
}

/** Longest text taken from one tool's parameter descriptions (a generated schema can carry pages). */
const maxParameterText = 4_000;

/** The descriptions and string enum values of a schema's properties, nested ones included (bounded). */
export function parameterDescriptions(schema: unknown): string[] {
  const texts: string[] = [];
  let length = 0;
  const visit = (node: unknown, depth: number) => {
    if (depth > 4 || node === null || typeof node !== "object" || length > maxParameterText) return;
    const { properties, items, description, enum: values } = node as { properties?: unknown; items?: unknown; description?: unknown; enum?: unknown };
    if (depth > 0 && typeof description === "string") {
      texts.push(description);
      length += description.length;
    }
    if (depth > 0 && Array.isArray(values)) texts.push(values.filter((value): value is string => typeof value === "string").join(" "));
    if (properties !== null && typeof properties === "object") for (const child of Object.values(properties as Record<string, unknown>)) visit(child, depth + 1);
    if (items !== undefined) visit(items, depth + 1);
  };
  visit(schema, 0);
  return texts;
}
