import type { ContextPolicy } from "../context-policy.js";
import type { Message } from "../../types/index.js";

/**
 * Follows OpenAI's server-side compaction (`createOpenAIResponses({ compactThreshold })`): once a
 * response carries a `compaction` item, the items before it are no longer read by the server —
 * the opaque item stands for them — so they are dropped from what ctxkit sends. That is a change of
 * already-sent context, so it is a declared `replace` edit (recorded in the session, replayed
 * byte-identically, and named by the prefix guard as declared, not as a bug). The compaction item
 * itself stays byte-exact in its assistant message. Pure: decided from the messages alone.
 */
export function createServerCompactionPolicy(): ContextPolicy {
  return {
    name: "server-compaction",
    // Stateless (decided from the messages alone): a child on the same provider follows its own compaction items the same way.
    inherit: "share",
    prepareContext(state) {
      const at = lastCompaction(state.messages);
      if (at === undefined || at === 0) return undefined;
      return [{ type: "replace", start: 0, end: at, messages: [], reason: `server-side compaction: the ${at} messages before the compaction item are covered by it` }];
    },
  };
}

/** Index of the newest assistant message holding an OpenAI `compaction` item. */
function lastCompaction(messages: readonly Message[]): number | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "assistant") continue;
    const found = message.content.some((part) => part.type === "provider_block" && part.provider === "openai" && isCompactionItem(part.block));
    if (found) return index;
  }
  return undefined;
}

function isCompactionItem(block: string): boolean {
  try {
    const item = JSON.parse(block) as { type?: unknown } | null;
    return item !== null && typeof item === "object" && item.type === "compaction";
  } catch {
    return false;
  }
}
