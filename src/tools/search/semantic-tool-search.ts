import { createHash } from "node:crypto";
import type { ToolDefinition } from "../../types/index.js";
import { CtxkitError } from "../../types/errors.js";
import { checkEmbeddings, normalised, type ToolSearchEmbedder } from "./tool-search-embedder.js";
import { parameterNames, type ToolSearchHit, type ToolSearchIndex } from "./tool-search-index.js";

/**
 * Semantic tool search (opt-in): an embedding model's ranking fused with the lexical one, for
 * queries that share meaning but no words with their tool ("who approved the PR" → a reviews tool).
 */
export interface ToolSearchEmbeddingOptions {
  embedder: ToolSearchEmbedder;
  /** Longest wait for one embedding call, in milliseconds (default: the embedder's `preferred`, else 10 000; tools are embedded in batches). */
  timeoutMs?: number;
  /** Reciprocal-rank fusion constant k: a tool at rank r of a ranking adds weight / (k + r) (default 60, as in Cormack et al. 2009). */
  fusionK?: number;
  /** Weight of the embedding ranking in the fusion; the lexical ranking's is 1 (default 1). */
  semanticWeight?: number;
  /** How many tools of each ranking take part in the fusion (default 50). */
  candidates?: number;
  /** Most tool texts per embedding call (default: the embedder's `preferred`, else 64); each batch's vectors are cached as it completes. */
  batchSize?: number;
}

export interface EmbeddingWarning {
  code: "embeddings_unavailable";
  message: string;
}

export interface SemanticToolSearch {
  /** The fused ranking, best first; the lexical one (and a warning) when the embedder fails. */
  search(query: string, limit: number, signal?: AbortSignal): Promise<ToolSearchHit[]>;
}

export const defaultToolSearchEmbeddingOptions = { timeoutMs: 10_000, fusionK: 60, semanticWeight: 1, candidates: 50, batchSize: 64 } as const;

/** Longest text embedded per tool or query (an embedding model reads ~512 tokens; a generated schema can carry pages). */
const maxEmbeddedChars = 2_000;

/** The text a query is embedded as (cut like a tool's). */
export function queryEmbeddingText(query: string): string {
  return query.slice(0, maxEmbeddedChars);
}
/** Failures in a row after which the index stops asking the embedder (each costs up to a timeout). */
const maxFailuresInARow = 3;
/** Most tool vectors kept per embedder (catalogs change with MCP servers' tool lists). */
const maxCachedVectors = 20_000;

/**
 * Tool vectors per embedder object (not per `id`: two embedders of one id may run different models),
 * by a hash of the embedded text: a rebuilt catalog embeds only new or changed tools. Bounded by
 * `maxCachedVectors` each; an embedder no longer referenced takes its vectors with it.
 */
const vectorCache = new WeakMap<ToolSearchEmbedder, Map<string, Float32Array>>();

/** The text a tool is embedded as: its name in words, its description, its parameters' names. */
export function toolEmbeddingText(tool: ToolDefinition): string {
  const name = tool.name.replace(/^mcp__.+?__/, "").replace(/[_.-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2");
  const parameters = [...new Set(parameterNames(tool.parameters))].join(", ");
  return `${name}: ${tool.description}${parameters === "" ? "" : `\nParameters: ${parameters}`}`.slice(0, maxEmbeddedChars);
}

/**
 * Fuses the lexical index's ranking with an embedding model's: tool texts are embedded on the
 * first search (once per text and embedder, cached), the query on every search; both rankings'
 * first `candidates` tools are combined by reciprocal-rank fusion, which needs no calibration of
 * BM25 scores against cosines (none could be tuned here: no embedding model was at hand). Every
 * call is bounded by `timeoutMs` and its answer checked; on failure the search returns the
 * lexical ranking and tells `onWarning`, and after three failures in a row it stops asking.
 */
export function createSemanticToolSearch(
  tools: readonly ToolDefinition[],
  lexical: ToolSearchIndex,
  options: ToolSearchEmbeddingOptions,
  onWarning?: (warning: EmbeddingWarning) => void,
): SemanticToolSearch {
  const settings = { ...defaultToolSearchEmbeddingOptions, ...options.embedder.preferred, ...options };
  const { embedder } = options;
  const cache = vectorCache.get(embedder) ?? new Map<string, Float32Array>();
  vectorCache.set(embedder, cache);
  const texts = tools.map(toolEmbeddingText);
  const keys = texts.map((text) => createHash("sha256").update(text).digest("base64url"));
  let toolVectors: Promise<ToolMatrix> | undefined;
  let failures = 0;

  const embedBounded = async (batch: readonly string[], signal: AbortSignal | undefined, dimensions?: number) => {
    // A timer cleared as soon as the call ends (AbortSignal.timeout's would live the whole limit, one per search).
    const bounded = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      bounded.abort(new CtxkitError("embedding_failed", `The embedding model did not answer within ${settings.timeoutMs} ms.`));
    }, settings.timeoutMs);
    const onAbort = () => bounded.abort(signal!.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    let vectors: Float32Array[];
    try {
      vectors = await Promise.race([
        embedder.embed(batch, bounded.signal),
        // An embedder that ignores its signal still cannot hold the search longer than the limit.
        new Promise<never>((_, reject) => bounded.signal.addEventListener("abort", () => reject(bounded.signal.reason), { once: true })),
      ]);
    } catch (error) {
      throw timedOut ? bounded.signal.reason : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
    return checkEmbeddings(vectors, batch.length, dimensions).map(normalised);
  };
  const embedTools = async (signal: AbortSignal | undefined, retried = false): Promise<Float32Array[]> => {
    const all = keys.map((key) => cache.get(key));
    const missing = all.flatMap((vector, index) => (vector === undefined ? [index] : []));
    const cachedDimensions = all.find((vector) => vector !== undefined)?.length;
    let dimensions: number | undefined;
    for (let start = 0; start < missing.length; start += settings.batchSize) {
      const batch = missing.slice(start, start + settings.batchSize);
      const vectors = await embedBounded(batch.map((index) => texts[index]!), signal, dimensions);
      if (dimensions === undefined && cachedDimensions !== undefined && vectors[0]!.length !== cachedDimensions) {
        // The model behind the embedder changed (its server now runs another one): the cached vectors cannot be compared with its new ones.
        if (retried) throw new CtxkitError("embedding_failed", `The embedding model's vectors changed length (${cachedDimensions}, then ${vectors[0]!.length}) while the tools were embedded.`);
        cache.clear();
        return embedTools(signal, true);
      }
      dimensions = vectors[0]!.length;
      if (cache.size + vectors.length > maxCachedVectors) cache.clear();
      batch.forEach((index, at) => {
        all[index] = vectors[at]!;
        cache.set(keys[index]!, vectors[at]!);
      });
    }
    return all as Float32Array[];
  };

  return {
    async search(query, limit, signal) {
      const lexicalHits = lexical.search(query, Math.max(limit, settings.candidates));
      if (failures >= maxFailuresInARow || tools.length === 0 || limit <= 0) return lexicalHits.slice(0, Math.max(0, limit));
      try {
        const toolMatrix = (fresh: boolean) => {
          toolVectors ??= embedTools(signal, fresh).then(toMatrix);
          return toolVectors.catch((error: unknown) => {
            toolVectors = undefined;
            throw error;
          });
        };
        let vectors = await toolMatrix(false);
        const [queryVector] = await embedBounded([queryEmbeddingText(query)], signal);
        if (queryVector!.length !== vectors.dimensions) {
          // The model changed since the tools were embedded: their vectors are dropped and made again, once.
          cache.clear();
          toolVectors = undefined;
          vectors = await toolMatrix(true);
          if (queryVector!.length !== vectors.dimensions) throw new CtxkitError("embedding_failed", `The embedding model's query vector has ${queryVector!.length} dimensions, its tool vectors ${vectors.dimensions}.`);
        }
        failures = 0;
        return fuseRankings(lexicalHits.map((hit) => hit.name), semanticRanking(tools, vectors, queryVector!, settings.candidates), settings).slice(0, limit);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        failures += 1;
        const reason = error instanceof Error ? error.message : String(error);
        const after = failures >= maxFailuresInARow ? ` Semantic search is off for this catalog after ${maxFailuresInARow} failures in a row.` : "";
        onWarning?.({ code: "embeddings_unavailable", message: `Tool search fell back to words only: ${reason}${after}` });
        return lexicalHits.slice(0, limit);
      }
    },
  };
}

/** Every tool's unit vector, one after another in one array (one pass over contiguous memory per search). */
interface ToolMatrix {
  values: Float32Array;
  dimensions: number;
}

function toMatrix(vectors: readonly Float32Array[]): ToolMatrix {
  const dimensions = vectors[0]!.length;
  const values = new Float32Array(vectors.length * dimensions);
  vectors.forEach((vector, tool) => values.set(vector, tool * dimensions));
  return { values, dimensions };
}

/**
 * The tools by cosine similarity to the query (vectors are unit length), best `count` first: one
 * pass of dot products, the best kept sorted as they come (no sort of the whole catalog).
 */
function semanticRanking(tools: readonly ToolDefinition[], matrix: ToolMatrix, query: Float32Array, count: number): string[] {
  const { values, dimensions } = matrix;
  const similarities = new Float64Array(tools.length);
  for (let tool = 0, offset = 0; tool < tools.length; tool += 1, offset += dimensions) {
    // Four sums at once: independent additions the CPU can overlap (about a third faster at 1 024 dimensions).
    let sum0 = 0;
    let sum1 = 0;
    let sum2 = 0;
    let sum3 = 0;
    let at = 0;
    for (; at + 3 < dimensions; at += 4) {
      sum0 += values[offset + at]! * query[at]!;
      sum1 += values[offset + at + 1]! * query[at + 1]!;
      sum2 += values[offset + at + 2]! * query[at + 2]!;
      sum3 += values[offset + at + 3]! * query[at + 3]!;
    }
    for (; at < dimensions; at += 1) sum0 += values[offset + at]! * query[at]!;
    similarities[tool] = sum0 + sum1 + sum2 + sum3;
  }
  const best: number[] = [];
  for (let tool = 0; tool < tools.length; tool += 1) {
    const similarity = similarities[tool]!;
    if (best.length === count && similarity <= similarities[best[best.length - 1]!]!) continue;
    let at = best.length;
    while (at > 0 && similarities[best[at - 1]!]! < similarity) at -= 1;
    best.splice(at, 0, tool);
    if (best.length > count) best.pop();
  }
  return best.map((tool) => tools[tool]!.name);
}

/**
 * Reciprocal-rank fusion of two rankings: a tool at rank r (from 1) adds `weight / (fusionK + r)`
 * from each ranking it is in (the lexical ranking's weight is 1). Ties keep the lexical order.
 */
export function fuseRankings(lexical: readonly string[], semantic: readonly string[], settings: { fusionK: number; semanticWeight: number; candidates: number }): ToolSearchHit[] {
  const scores = new Map<string, number>();
  lexical.slice(0, settings.candidates).forEach((name, rank) => scores.set(name, 1 / (settings.fusionK + rank + 1)));
  semantic.slice(0, settings.candidates).forEach((name, rank) => scores.set(name, (scores.get(name) ?? 0) + settings.semanticWeight / (settings.fusionK + rank + 1)));
  const order = new Map<string, number>();
  for (const name of [...lexical, ...semantic]) if (!order.has(name)) order.set(name, order.size);
  return [...scores]
    .sort((left, right) => right[1] - left[1] || order.get(left[0])! - order.get(right[0])!)
    .map(([name, score]) => ({ name, score }));
}
