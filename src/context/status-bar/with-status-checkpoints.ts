import type { Message, UserMessage } from "../../types/index.js";
import { applyEdits } from "../compose-context-policies.js";
import type { ContextEdit, ContextPolicy } from "../context-policy.js";

/**
 * Wraps a compression policy so that every replacement which removes tool calls carries a status
 * checkpoint: the counts and TODO list as they stood before the removed part. Without it a
 * compaction would reset "3 calls to Xfinity" to 0 and lift a limit the model had already reached.
 *
 * The checkpoint goes at the end of the replacement, only where the next kept message is not a
 * tool result — a user message between a call's results would split the pair, which providers reject.
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
        if (edit.type === "replace" && removesToolCalls(messages, edit) && messages[edit.end]?.role !== "tool") {
          const id = `status_checkpoint_${messages[Math.max(0, edit.end - 1)]?.meta.id ?? edit.end}`;
          next = { ...edit, messages: [...edit.messages, checkpoint(messages.slice(0, edit.end), state.now, id)] };
        }
        result.push(next);
        messages = applyEdits(messages, [next]);
      }
      return result;
    },
  };
}

function removesToolCalls(messages: readonly Message[], edit: Extract<ContextEdit, { type: "replace" }>): boolean {
  const kept = new Set(edit.messages);
  return messages
    .slice(edit.start, edit.end)
    .some((message) => !kept.has(message) && message.role === "assistant" && message.content.some((part) => part.type === "tool_call"));
}
