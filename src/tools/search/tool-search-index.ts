import MiniSearch, { type SearchOptions } from "minisearch";
import type { ToolDefinition } from "../../types/index.js";

/**
 * How the index weighs and matches terms. The defaults were tuned by `ctxkit bench disclosure` on the
 * even-id half of its τ-bench tasks only (the odd half measures them).
 */
export interface ToolSearchIndexOptions {
  /** Weight of a match per field (default name 5, description 1, parameters 3). */
  boost?: { name?: number; description?: number; parameters?: number };
  /** Edit distance allowed per term, as a share of its length (default 0.1; 0 turns fuzzy matching off). */
  fuzzy?: number;
  /** Whether a query term also matches words it begins ("reserv" finds "reservation"; default false). */
  prefix?: boolean;
}

export interface ToolSearchHit {
  name: string;
  score: number;
}

/** A BM25 index over a fixed set of tool definitions. */
export interface ToolSearchIndex {
  /** The best matches for a query, best first (at most `limit`). */
  search(query: string, limit: number): ToolSearchHit[];
  readonly size: number;
}

export const defaultToolSearchIndexOptions: Required<Omit<ToolSearchIndexOptions, "boost">> & { boost: Required<NonNullable<ToolSearchIndexOptions["boost"]>> } = {
  boost: { name: 5, description: 1, parameters: 3 },
  fuzzy: 0.1,
  prefix: false,
};

/** Longest query the index reads; a model could send a whole document as the query. */
const maxQueryChars = 2_000;

/**
 * Builds a BM25 index (minisearch) over tool names, descriptions and parameter names. Names and
 * parameters are split at `_`, `-`, `.` and camelCase humps, so "get_reservation_details" and
 * "getReservationDetails" both match "reservation". Built once per catalog; searching is pure.
 */
export function createToolSearchIndex(tools: readonly ToolDefinition[], options: ToolSearchIndexOptions = {}): ToolSearchIndex {
  const boost = { ...defaultToolSearchIndexOptions.boost, ...options.boost };
  const fuzzy = options.fuzzy ?? defaultToolSearchIndexOptions.fuzzy;
  const prefix = options.prefix ?? defaultToolSearchIndexOptions.prefix;
  const index = new MiniSearch<{ id: string; name: string; description: string; parameters: string }>({
    fields: ["name", "description", "parameters"],
    storeFields: [],
    processTerm: splitTerm,
  });
  index.addAll(
    tools.map((tool) => ({ id: tool.name, name: tool.name, description: tool.description, parameters: parameterNames(tool.parameters).join(" ") })),
  );
  const searchOptions: SearchOptions = {
    boost,
    combineWith: "OR",
    ...(fuzzy > 0 ? { fuzzy } : {}),
    prefix,
  };
  return {
    size: tools.length,
    search(query, limit) {
      const text = query.slice(0, maxQueryChars);
      return index
        .search(text, searchOptions)
        .slice(0, Math.max(0, limit))
        .map((result) => ({ name: String(result.id), score: result.score }));
    },
  };
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

const stopWords = new Set(["a", "an", "the", "of", "to", "and", "or", "in", "on", "for", "is", "be", "it", "this", "that", "with", "as", "by", "at", "i", "my", "me", "you", "your"]);

/** minisearch's per-term hook: camelCase split, lowercase, stop words dropped. */
function splitTerm(term: string): string[] | null {
  const words = term
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_\-./]+/)
    .map((word) => word.toLowerCase())
    .filter((word) => word !== "" && !stopWords.has(word));
  return words.length === 0 ? null : words;
}
