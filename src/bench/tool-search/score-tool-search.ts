import { createToolSearchIndex, type ToolSearchIndex, type ToolSearchIndexOptions } from "../../tools/search/tool-search-index.js";
import type { ToolDefinition } from "../../types/index.js";
import type { ToolSearchQuery } from "./tool-search-evaluation.js";

export interface ToolSearchScores {
  queries: number;
  /** Share of queries whose right tool (or one as right) is among the first 5 hits. */
  recallAt5: number;
  /** Mean reciprocal rank of the first right tool among the first 10 hits (0 when none). */
  mrr: number;
  /** The queries whose right tool is not in the first 5: what to look at next. */
  misses: Array<{ query: string; tool: string; top: string[] }>;
}

/** recall@5 and MRR of one index over a set of queries. */
export function scoreToolSearch(index: ToolSearchIndex, queries: readonly ToolSearchQuery[]): ToolSearchScores {
  return scoreRankings(queries, queries.map((query) => index.search(query.query, 10).map((hit) => hit.name)));
}

/** recall@5 and MRR of the rankings a search gave, one per query (best first, at least 10 long when it has them). */
export function scoreRankings(queries: readonly ToolSearchQuery[], rankings: ReadonlyArray<readonly string[]>): ToolSearchScores {
  let found = 0;
  let reciprocal = 0;
  const misses: ToolSearchScores["misses"] = [];
  for (const [position, query] of queries.entries()) {
    const ranked = (rankings[position] ?? []).slice(0, 10);
    const rank = ranked.findIndex((name) => name === query.tool || query.accept.includes(name));
    if (rank !== -1) reciprocal += 1 / (rank + 1);
    if (rank !== -1 && rank < 5) found += 1;
    else misses.push({ query: query.query, tool: query.tool, top: ranked.slice(0, 3) });
  }
  const count = queries.length;
  return { queries: count, recallAt5: count === 0 ? 0 : found / count, mrr: count === 0 ? 0 : reciprocal / count, misses };
}

export function scoreToolSearchOptions(tools: readonly ToolDefinition[], queries: readonly ToolSearchQuery[], options: ToolSearchIndexOptions): ToolSearchScores {
  return scoreToolSearch(createToolSearchIndex(tools, options), queries);
}
