import type { Tool } from "../../types/index.js";
import type { LateToolSet } from "./late-tool-set.js";
import { createToolSearchIndex, type ToolSearchHit, type ToolSearchIndex, type ToolSearchIndexOptions } from "./tool-search-index.js";

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
  search(query: string, limit: number): ToolSearchHit[];
  /** Swaps the set of tools; the index is rebuilt on the next search. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see tools
  replace(tools: readonly Tool<any>[]): void;
  /** How many times the index was built (for tests and benchmarks: once per distinct catalog). */
  readonly indexBuilds: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolCatalog.tools
export function createToolCatalog(initial: readonly Tool<any>[], options: ToolSearchIndexOptions = {}, late?: LateToolSet): ToolCatalog {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolCatalog.tools
  let byName = new Map<string, Tool<any>>();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ToolCatalog.tools
  let sorted: Tool<any>[] = [];
  let index: ToolSearchIndex | undefined;
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
  replace(initial);
  return {
    get tools() {
      current();
      return sorted;
    },
    get: (name) => (current(), byName.get(name)),
    has: (name) => (current(), byName.has(name)),
    search(query, limit) {
      current();
      if (!index) {
        index = createToolSearchIndex(sorted, options);
        indexBuilds += 1;
      }
      return index.search(query, limit);
    },
    replace,
    get indexBuilds() {
      return indexBuilds;
    },
  };
}
