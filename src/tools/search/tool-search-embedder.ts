import { maxEmbeddingDimensions } from "../../types/embedder.js";
import { CtxkitError } from "../../types/errors.js";

export type { ToolSearchEmbedder } from "../../types/embedder.js";
export { maxEmbeddingDimensions } from "../../types/embedder.js";

/**
 * The embedder's answer, checked: as many vectors as texts, all of one length (and of
 * `dimensions` when given), at most `maxEmbeddingDimensions`, finite numbers only, not all zero.
 * Throws `embedding_failed` saying what was wrong otherwise.
 */
export function checkEmbeddings(vectors: unknown, count: number, dimensions?: number): Float32Array[] {
  if (!Array.isArray(vectors) || vectors.length !== count) {
    throw new CtxkitError("embedding_failed", `The embedder returned ${Array.isArray(vectors) ? vectors.length : "no list of"} vectors for ${count} texts; it must return one vector per text.`);
  }
  const length = dimensions ?? (vectors[0] as { length?: unknown } | undefined)?.length;
  if (typeof length !== "number" || length < 1 || length > maxEmbeddingDimensions) {
    throw new CtxkitError("embedding_failed", `The embedder returned vectors of ${String(length)} dimensions; between 1 and ${maxEmbeddingDimensions} are accepted.`);
  }
  return vectors.map((vector: unknown, index) => {
    if (!(vector instanceof Float32Array) || vector.length !== length) {
      throw new CtxkitError("embedding_failed", `The embedder's vector ${index} is not a Float32Array of ${length} numbers like the others.`);
    }
    let nonZero = false;
    for (const value of vector) {
      if (!Number.isFinite(value)) throw new CtxkitError("embedding_failed", `The embedder's vector ${index} holds a number that is not finite.`);
      if (value !== 0) nonZero = true;
    }
    if (!nonZero) throw new CtxkitError("embedding_failed", `The embedder's vector ${index} is all zeros; it cannot be compared.`);
    return vector;
  });
}

/** The vector scaled to length 1, so a dot product is the cosine similarity. */
export function normalised(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  const unit = new Float32Array(vector.length);
  for (let index = 0; index < vector.length; index += 1) unit[index] = vector[index]! / norm;
  return unit;
}
