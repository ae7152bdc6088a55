import { createSemanticToolSearch, type ToolSearchEmbeddingOptions } from "../../tools/search/semantic-tool-search.js";
import type { ToolSearchEmbedder } from "../../tools/search/tool-search-embedder.js";
import { createToolSearchIndex } from "../../tools/search/tool-search-index.js";
import type { ToolDefinition } from "../../types/index.js";

export interface SemanticSpeed {
  tools: number;
  queries: number;
  /** Embedding every tool text once (the first search's cost), in milliseconds. */
  toolEmbeddingMs: number;
  /** Mean and p99 of a whole search, the query's embedding call included, in microseconds. */
  microsecondsPerQuery: number;
  p99Microseconds: number;
  /** Mean time of the search outside the embedding call (BM25F, cosines over every tool, the fusion), in microseconds. */
  fusionMicrosecondsPerQuery: number;
}

/** Most queries timed (each is one call to the embedding model). */
const maxTimedQueries = 100;
/** Queries searched untimed first, so the timed ones run warm (JIT, inline caches), as the lexical speed's do. */
const warmUpQueries = 20;

/**
 * The speed of semantic search over `catalog` (built as the lexical speed's is), one pass after the
 * tools were embedded: whole searches, and the part that is ctxkit's own (the time spent waiting
 * for the embedder subtracted), so a slow server and a slow fusion are told apart.
 */
export async function measureSemanticSpeed(catalog: readonly ToolDefinition[], queries: readonly string[], embeddings: ToolSearchEmbeddingOptions): Promise<SemanticSpeed> {
  let embedderMs = 0;
  const timed: ToolSearchEmbedder = {
    id: embeddings.embedder.id,
    async embed(texts, signal) {
      const started = performance.now();
      try {
        return await embeddings.embedder.embed(texts, signal);
      } finally {
        embedderMs += performance.now() - started;
      }
    },
  };
  const search = createSemanticToolSearch(catalog, createToolSearchIndex(catalog), { ...embeddings, embedder: timed });
  const embedStarted = performance.now();
  await search.search("warm up", 5);
  const toolEmbeddingMs = performance.now() - embedStarted;
  for (const query of queries.slice(-warmUpQueries)) await search.search(query, 5);
  const sample = queries.slice(0, maxTimedQueries);
  const times: number[] = [];
  embedderMs = 0;
  let total = 0;
  for (const query of sample) {
    const started = performance.now();
    await search.search(query, 5);
    const elapsed = (performance.now() - started) * 1000;
    times.push(elapsed);
    total += elapsed;
  }
  times.sort((left, right) => left - right);
  const count = Math.max(1, sample.length);
  return {
    tools: catalog.length,
    queries: sample.length,
    toolEmbeddingMs: Math.round(toolEmbeddingMs),
    microsecondsPerQuery: Math.round(total / count),
    p99Microseconds: Math.round(times[Math.floor(times.length * 0.99)] ?? 0),
    fusionMicrosecondsPerQuery: Math.round(Math.max(0, total - embedderMs * 1000) / count),
  };
}
