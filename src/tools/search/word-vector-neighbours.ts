/**
 * Static word vectors (GloVe-like: one vector per word, no model to run) as a source of synonyms
 * the word tables do not list: a query word is widened by the catalog's words whose vectors point
 * the same way ("booking" → reservation). Optional: ctxkit ships no vectors; a caller passes a
 * lookup over vectors it has (`ctxkit bench tool-search --word-vectors` reads wink's GloVe JSON).
 */
export type WordVectorLookup = (word: string) => ArrayLike<number> | undefined;

export interface WordNeighbour {
  word: string;
  similarity: number;
}

export interface WordNeighbourFinder {
  /** Catalog words whose cosine similarity to `word` is at least `minSimilarity`, most similar first (at most `limit`). */
  neighbours(word: string, limit: number, minSimilarity: number): WordNeighbour[];
}

/** Catalog words and their unit vectors, one flat array; a query word is compared with each once. */
export function createWordNeighbourFinder(catalogWords: Iterable<string>, lookup: WordVectorLookup): WordNeighbourFinder {
  const words: string[] = [];
  const vectors: number[] = [];
  let dimensions = 0;
  for (const word of catalogWords) {
    const vector = lookup(word);
    if (vector === undefined || vector.length === 0) continue;
    if (dimensions === 0) dimensions = vector.length;
    if (vector.length !== dimensions) continue;
    const norm = Math.hypot(...Array.from(vector));
    if (norm === 0) continue;
    words.push(word);
    for (let index = 0; index < dimensions; index += 1) vectors.push(vector[index]! / norm);
  }
  const matrix = Float32Array.from(vectors);
  const cache = new Map<string, WordNeighbour[]>();
  return {
    neighbours(word, limit, minSimilarity) {
      const key = `${word} ${limit} ${minSimilarity}`;
      const cached = cache.get(key);
      if (cached !== undefined) return cached;
      const vector = lookup(word);
      const found: WordNeighbour[] = [];
      if (vector !== undefined && vector.length === dimensions) {
        const norm = Math.hypot(...Array.from(vector)) || 1;
        for (let row = 0; row < words.length; row += 1) {
          let dot = 0;
          const offset = row * dimensions;
          for (let index = 0; index < dimensions; index += 1) dot += matrix[offset + index]! * vector[index]!;
          const similarity = dot / norm;
          if (similarity >= minSimilarity && words[row] !== word) found.push({ word: words[row]!, similarity });
        }
        found.sort((left, right) => right.similarity - left.similarity);
        found.length = Math.min(found.length, limit);
      }
      // Bounded: a model could send many distinct words.
      if (cache.size >= 10_000) cache.clear();
      cache.set(key, found);
      return found;
    },
  };
}
