import { defaultToolSearchEmbeddingOptions, queryEmbeddingText } from "../../tools/search/semantic-tool-search.js";
import { CtxkitError, type ToolSearchEmbedder } from "../../types/index.js";

/** Texts per call when the bench embeds its queries up front: the semantic search's own default batch size. */
const prefetchBatchSize = defaultToolSearchEmbeddingOptions.batchSize;

/**
 * An embedder that answers from vectors it already has: the bench's queries are embedded up front,
 * in batches, instead of one call per search (hundreds of searches over the same few queries).
 * The vectors are the embedder's own, so every ranking is the same as with one call per search;
 * texts it has not seen go to the embedder. The speed measurement does not use it (its calls are timed).
 * A first batch that fails stops the bench: a dead server would otherwise score words alone.
 */
export async function createPrefetchedEmbedder(embedder: ToolSearchEmbedder, queries: readonly string[]): Promise<ToolSearchEmbedder> {
  const known = new Map<string, Float32Array>();
  const texts = [...new Set(queries.map(queryEmbeddingText))];
  for (let start = 0; start < texts.length; start += prefetchBatchSize) {
    const batch = texts.slice(start, start + prefetchBatchSize);
    let vectors: Float32Array[];
    try {
      vectors = await embedder.embed(batch, AbortSignal.timeout(120_000));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new CtxkitError("embedding_failed", `The embedding model (${embedder.id}) failed on the bench's queries, so its rows would measure words alone: ${reason} Check that the server runs (or the model file loads) and try again.`);
    }
    // A wrong answer is left to the search's own checks: those texts are asked again, one by one.
    if (vectors.length === batch.length) batch.forEach((text, index) => known.set(text, vectors[index]!));
  }
  return {
    id: embedder.id,
    async embed(batch, signal) {
      if (batch.every((text) => known.has(text))) return batch.map((text) => known.get(text)!);
      return embedder.embed(batch, signal);
    },
  };
}
