import type { LateToolSet, Tool } from "../../types/index.js";

export type { LateToolSet } from "../../types/index.js";

/**
 * An empty set of late tools. Passing it as `toolSearch.lateTools` installs `tool_search` and
 * `call_tool` from the first call, so a tool added later always has a route that leaves `tools` as it was.
 */
export function createLateToolSet(): LateToolSet {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  const byName = new Map<string, Tool<any>>();
  const removed = new Set<string>();
  let version = 0;
  return {
    get tools() {
      return [...byName.values()];
    },
    removed,
    get version() {
      return version;
    },
    update(change) {
      if (change.added.length === 0 && change.removed.length === 0) return;
      for (const name of change.removed) {
        byName.delete(name);
        removed.add(name);
      }
      for (const tool of change.added) {
        byName.set(tool.name, tool);
        removed.delete(tool.name);
      }
      version += 1;
    },
  };
}
