import type { Tool } from "../../types/index.js";
import type { ToolCatalog } from "./tool-catalog.js";
import { callToolName, discoveredToolNames, toolSearchToolName } from "./tool-discovery.js";

export interface ToolSearchArgs {
  query: string;
  limit?: number;
}

/** Most matches one search may return (a model asking for 500 would put the catalog back in the context). */
export const maxToolSearchLimit = 10;

/**
 * The model-facing search over the deferred tools. The result names the matches; their full
 * definitions follow as one appended message (the policy's `prepareContext`), so the `tools` array
 * — and with it the cached prefix — never changes. The matches' names are recorded on the result
 * (`meta.toolSearch`), so the discovery message is made from what this search returned, also after
 * a restart; `found` receives them too, by call id.
 */
export function createToolSearchTool(catalog: ToolCatalog, defaultLimit: number, found: Map<string, string[]>): Tool<ToolSearchArgs> {
  return {
    name: toolSearchToolName,
    description:
      "Search the tools that are not loaded yet, by what you want to do (e.g. \"cancel a reservation\"). " +
      `The best matches' full definitions are added to the conversation; call them with ${callToolName}. ` +
      "Search before you call a tool you have not seen the definition of.",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", description: "Words describing the action or data you need." },
        limit: { type: "integer", minimum: 1, maximum: maxToolSearchLimit, description: `How many tools to return (default ${defaultLimit}).` },
      },
      required: ["query"],
      additionalProperties: false,
    },
    parallelSafe: true,
    source: "trusted",
    risk: "read",
    async execute(args, context) {
      const hits = await catalog.find(args.query, args.limit ?? defaultLimit, context.signal);
      const toolSearch = { names: hits.map((hit) => hit.name) };
      found.set(context.toolCallId, toolSearch.names);
      if (hits.length === 0) return { content: `No tool matches "${args.query}". Try other words (the action, the object it acts on).`, toolSearch };
      const known = discoveredToolNames(context.messages ?? []);
      const lines = hits.map((hit) => {
        const description = firstSentence(catalog.get(hit.name)?.description ?? "");
        return `- ${hit.name}: ${description}${known.has(hit.name) ? " (definition already in the conversation)" : ""}`;
      });
      const fresh = hits.filter((hit) => !known.has(hit.name)).length;
      const follow = fresh === 0 ? "All of them were found before; their definitions are earlier in the conversation." : "Their full definitions follow in the next message.";
      return { content: `Found ${hits.length} tool${hits.length === 1 ? "" : "s"}:\n${lines.join("\n")}\n${follow}`, toolSearch };
    },
  };
}

function firstSentence(text: string): string {
  const line = text.split("\n")[0] ?? "";
  const end = line.search(/\.(\s|$)/);
  const sentence = end === -1 ? line : line.slice(0, end + 1);
  return sentence.length <= 200 ? sentence : `${sentence.slice(0, 200)}…`;
}
