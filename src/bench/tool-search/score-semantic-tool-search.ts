import { createSemanticToolSearch, type ToolSearchEmbeddingOptions } from "../../tools/search/semantic-tool-search.js";
import { createToolSearchIndex } from "../../tools/search/tool-search-index.js";
import type { ToolDefinition } from "../../types/index.js";
import { scoreRankings, type ToolSearchScores } from "./score-tool-search.js";
import type { ToolSearchQuery } from "./tool-search-evaluation.js";

export interface SemanticScores extends ToolSearchScores {
  /** Searches whose embedding call failed and that fell back to words alone (their rankings are lexical). */
  fallbacks: number;
  /** The first fallback's reason, to fix the server or model. */
  firstFallback?: string;
}

/**
 * recall@5 and MRR of the shipped lexical defaults fused with an embedding model
 * (`createSemanticToolSearch`), over a set of queries: the tools are embedded once (first query),
 * then one embedding call per query. Fallbacks are counted, never hidden: a row with fallbacks
 * measured words, not the model.
 */
export async function scoreSemanticToolSearch(tools: readonly ToolDefinition[], queries: readonly ToolSearchQuery[], embeddings: ToolSearchEmbeddingOptions): Promise<SemanticScores> {
  let fallbacks = 0;
  let firstFallback: string | undefined;
  const search = createSemanticToolSearch(tools, createToolSearchIndex(tools), embeddings, (warning) => {
    fallbacks += 1;
    firstFallback ??= warning.message;
  });
  const rankings: string[][] = [];
  for (const query of queries) rankings.push((await search.search(query.query, 10)).map((hit) => hit.name));
  return { ...scoreRankings(queries, rankings), fallbacks, ...(firstFallback === undefined ? {} : { firstFallback }) };
}
