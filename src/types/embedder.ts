/**
 * Turns texts into vectors for semantic tool search: a sentence-embedding model behind an
 * OpenAI-compatible `/v1/embeddings` server (`createOpenAIEmbedder`) or a local GGUF model
 * (`createLlamaEmbedder` in ctxkit/providers), or anything else that keeps this contract: one
 * vector per text, in order, all of one length. Its vectors are checked before use (see
 * `checkEmbeddings` in ctxkit/tools), so a wrong one only turns semantic search off for that search.
 * Here, with the other shared types, so providers implement it without depending on the tools.
 */
export interface ToolSearchEmbedder {
  /** Names the model (e.g. "openai:text-embedding-3-small"). */
  readonly id: string;
  embed(texts: readonly string[], signal: AbortSignal): Promise<Float32Array[]>;
  /** Frees what the embedder holds (a loaded model); called once when its owner is done with it. */
  dispose?(): Promise<void>;
  /**
   * How the search should call it, when not told otherwise: an in-process model embeds one text
   * at a time, so it asks for batches of one (each vector kept as it completes, whatever a later
   * one does) and a longer wait (its first call loads the model). Default: 64 texts, 10 s.
   */
  readonly preferred?: { batchSize?: number; timeoutMs?: number };
}

/** Longest vector accepted (the largest common models have 4 096 dimensions; 3-large 3 072). */
export const maxEmbeddingDimensions = 16_384;
