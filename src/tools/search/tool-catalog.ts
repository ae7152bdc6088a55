import type { Tool } from "../../types/index.js";
import type { LateToolSet } from "./late-tool-set.js";
import { createSemanticToolSearch, type EmbeddingWarning, type SemanticToolSearch, type ToolSearchEmbeddingOptions } from "./semantic-tool-search.js";
import { createToolSearchIndex, type ToolSearchHit, type ToolSearchIndex, type ToolSearchIndexOptions } from "./tool-search-index.js";

/** The index's settings, and an embedding model to fuse with it (opt-in). */
export interface ToolCatalogOptions extends Omit<ToolSearchIndexOptions, "onWarning"> {
  /** Semantic search: an embedder whose ranking is fused with the words' (see `createSemanticToolSearch`). */
  embeddings?: ToolSearchEmbeddingOptions;
  onWarning?: (warning: Parameters<NonNullable<ToolSearchIndexOptions["onWarning"]>>[0] | EmbeddingWarning) => void;
}

/**
 * The deferred tools an agent can discover, sorted by name, with a search index built on the first
 * search and rebuilt only after the set changed: `replace`, or a change of the late tools (a server's
 * tool list changed), which join the set and take out the tools they removed.
 */
export interface ToolCatalog {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  readonly tools: readonly Tool<any>[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see tools
  get(name: string): Tool<any> | undefined;
  has(name: string): boolean;
  /** The lexical (BM25F) matches, best first. */
  search(query: string, limit: number): ToolSearchHit[];
  /** The matches `tool_search` gives: fused with the embedding model's ranking when `embeddings` is set, else `search`'s. */
  find(query: string, limit: number, signal?: AbortSignal): Promise<ToolSearchHit[]>;
  /** Swaps the set of tools; the index is rebuilt on the next search. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see tools
  replace(tools: readonly Tool<any>[]): void;
  /** How many times the index was built (for tests and benchmarks: once per distinct catalog). */
  readonly indexBuilds: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolCatalog.tools
export function createToolCatalog(initial: readonly Tool<any>[], options: ToolCatalogOptions = {}, late?: LateToolSet): ToolCatalog {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolCatalog.tools
  let byName = new Map<string, Tool<any>>();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolCatalog.tools
  let sorted: Tool<any>[] = [];
  let index: ToolSearchIndex | undefined;
  let semantic: SemanticToolSearch | undefined;
  let indexBuilds = 0;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolCatalog.tools
  let base: readonly Tool<any>[] = [];
  let lateVersion = late?.version;
  const rebuild = () => {
    const lateTools = late?.tools ?? [];
    const lateNames = new Set(lateTools.map((tool) => tool.name));
    const kept = base.filter((tool) => !late?.removed.has(tool.name) && !lateNames.has(tool.name));
    sorted = [...kept, ...lateTools].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    byName = new Map(sorted.map((tool) => [tool.name, tool]));
    index = undefined;
    semantic = undefined;
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolCatalog.tools
  const replace = (tools: readonly Tool<any>[]) => {
    base = [...tools];
    rebuild();
  };
  const current = () => {
    if (late && late.version !== lateVersion) {
      lateVersion = late.version;
      rebuild();
    }
  };
  const lexical = () => {
    current();
    if (!index) {
      const { embeddings: _embeddings, ...indexOptions } = options;
      index = createToolSearchIndex(sorted, indexOptions);
      indexBuilds += 1;
    }
    return index;
  };
  replace(initial);
  return {
    get tools() {
      current();
      return sorted;
    },
    get: (name) => (current(), byName.get(name)),
    has: (name) => (current(), byName.has(name)),
    search: (query, limit) => lexical().search(query, limit),
    async find(query, limit, signal) {
      const words = lexical();
      if (options.embeddings === undefined) return words.search(query, limit);
      semantic ??= createSemanticToolSearch(sorted, words, options.embeddings, options.onWarning);
      return semantic.search(query, limit, signal);
    },
    replace,
    get indexBuilds() {
      return indexBuilds;
    },
  };
}
