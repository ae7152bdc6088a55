import { createSemanticToolSearch, type ToolSearchEmbeddingOptions } from "../../tools/search/semantic-tool-search.js";
import { CtxkitError, type ToolSearchEmbedder } from "../../types/index.js";
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
  /** Searches after the tools were embedded that fell back to words alone (their times are the words', not the model's). */
  fallbacks: number;
  firstFallback?: string;
}

/** Most queries timed (each is one call to the embedding model). */
const maxTimedQueries = 100;
/** Queries searched untimed first, so the timed ones run warm (JIT, inline caches), as the lexical speed's do. */
const warmUpQueries = 20;

/**
 * The speed of semantic search over `catalog` (built as the lexical speed's is), one pass after the
 * tools were embedded: whole searches, and the part that is ctxkit's own (the time spent waiting
 * for the embedder subtracted), so a slow server and a slow fusion are told apart. Searches that
 * fell back to words are counted; when embedding the tools fails, it stops with the reason.
 */
export async function measureSemanticSpeed(catalog: readonly ToolDefinition[], queries: readonly string[], embeddings: ToolSearchEmbeddingOptions): Promise<SemanticSpeed> {
  let embedderMs = 0;
  let calls = 0;
  // The first call embeds the tools' first batch: when it fails, no search below would ask the model.
  let firstCallFailure: string | undefined;
  const timed: ToolSearchEmbedder = {
    id: embeddings.embedder.id,
    async embed(texts, signal) {
      const started = performance.now();
      const first = calls === 0;
      calls += 1;
      try {
        return await embeddings.embedder.embed(texts, signal);
      } catch (error) {
        if (first) firstCallFailure = error instanceof Error ? error.message : String(error);
        throw error;
      } finally {
        embedderMs += performance.now() - started;
      }
    },
  };
  let fallbacks = 0;
  let firstFallback: string | undefined;
  const search = createSemanticToolSearch(catalog, createToolSearchIndex(catalog), { ...embeddings, embedder: timed }, (warning) => {
    fallbacks += 1;
    firstFallback ??= warning.message;
  });
  const embedStarted = performance.now();
  await search.search("warm up", 5);
  const toolEmbeddingMs = performance.now() - embedStarted;
  if (firstCallFailure !== undefined) {
    throw new CtxkitError("embedding_failed", `Embedding the ${catalog.length} tools of the speed measurement failed, so there is no semantic speed to report: ${firstCallFailure} Check the embedding server or model file and run the bench again.`);
  }
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
    fallbacks,
    ...(firstFallback === undefined ? {} : { firstFallback }),
  };
}
