import type { ContextPolicy } from "../context-policy.js";
import type { Message } from "../../types/index.js";

/**
 * Follows the providers' server-side compaction: once a response carries a compaction, the server
 * no longer reads what came before it — the summary stands for it — so ctxkit drops that from what
 * it sends. OpenAI (`createOpenAIResponses({ compactThreshold })`): an opaque `compaction` item.
 * Anthropic (`compact_20260112`, at a threshold or `run(input, { compact })`): a `compaction` block at
 * the start of the answer; "when the API receives a compaction block, all content blocks before it
 * are ignored", and the guide allows to "manually drop the compacted messages and only include the
 * compaction block onwards". Dropping them changes already-sent context, so it is a declared
 * `replace` edit (recorded in the session, replayed byte-identically, and named by the prefix guard
 * as declared, not as a bug). The compaction itself stays byte-exact in its assistant message. Pure:
 * decided from the messages alone.
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

/** Index of the newest assistant message holding an OpenAI `compaction` item or an Anthropic `compaction` block. */
function lastCompaction(messages: readonly Message[]): number | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "assistant") continue;
    const found = message.content.some((part) => part.type === "provider_block" && (part.provider === "openai" || part.provider === "anthropic") && isCompactionItem(part.block));
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
