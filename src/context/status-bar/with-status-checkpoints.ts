import type { Message, UserMessage } from "../../types/index.js";
import { applyEdits } from "../compose-context-policies.js";
import type { ContextEdit, ContextPolicy } from "../context-policy.js";
import { findStatusCheckpoint } from "./status-checkpoint.js";

/**
 * Wraps a compression policy so that every replacement which removes tool calls carries a status
 * checkpoint: the counts and TODO list as they stood before the removed part. Without it a
 * compaction would reset "3 calls to Xfinity" to 0 and lift a limit the model had already reached.
 *
 * The checkpoint goes at the end of the replacement; when the next kept message is a tool result the
 * replacement is extended over the rest of those results (unchanged) — a user message between a
 * call's results would split the pair, which providers reject.
 */
export function withStatusCheckpoints(
  policy: ContextPolicy,
  checkpoint: (messages: readonly Message[], now: Date, id: string) => UserMessage,
): ContextPolicy {
  if (!policy.prepareContext) return policy;
  const prepare = policy.prepareContext.bind(policy);
  return {
    ...policy,
    async prepareContext(state) {
      const edits = (await prepare(state)) ?? [];
      let messages = state.messages;
      const result: ContextEdit[] = [];
      for (const edit of edits) {
        let next = edit;
        if (edit.type === "replace" && removesStatus(messages, edit)) {
          // Ending between a call's results (e.g. one result cleared, the next kept) would put the
          // checkpoint inside the pair: carry the rest of the pair, unchanged, into the replacement.
          let end = edit.end;
          while (messages[end]?.role === "tool") end += 1;
          const id = `status_checkpoint_${messages[Math.max(0, end - 1)]?.meta.id ?? end}`;
          next = { ...edit, end, messages: [...edit.messages, ...messages.slice(edit.end, end), checkpoint(messages.slice(0, end), state.now, id)] };
        }
        result.push(next);
        messages = applyEdits(messages, [next]);
      }
      return result;
    },
  };
}

/** Whether the edit removes tool calls, or an earlier checkpoint (which holds the counts of calls already summarised). */
function removesStatus(messages: readonly Message[], edit: Extract<ContextEdit, { type: "replace" }>): boolean {
  const kept = new Set(edit.messages);
  const checkpointIndex = findStatusCheckpoint(messages.slice(0, edit.end))?.index;
  return messages
    .slice(edit.start, edit.end)
    .some(
      (message, offset) =>
        !kept.has(message) &&
        ((message.role === "assistant" && message.content.some((part) => part.type === "tool_call")) || edit.start + offset === checkpointIndex),
    );
}
