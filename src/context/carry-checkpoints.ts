import { derivedOf, type Message, type UserMessage } from "../types/index.js";
import type { ContextEdit, ContextPolicy } from "./context-policy.js";

/**
 * Adds the checkpoints of `policies` to every replacement that removes tool calls or an earlier
 * checkpoint: each policy's state (counts, TODO list, …) as it stood before the removed part,
 * right after the replacement. Without it a compaction would reset "3 calls to Xfinity" to 0 and
 * lift a limit the model had already reached.
 *
 * When the next kept message is a tool result, the replacement is extended over the rest of those
 * results (unchanged): a user message between a call's results would split the pair, which
 * providers reject. Pure.
 */
export function carryCheckpoints(
  messages: readonly Message[],
  edits: readonly ContextEdit[],
  policies: readonly ContextPolicy[],
  now: Date,
): ContextEdit[] {
  if (policies.length === 0) return [...edits];
  let current = messages;
  const result: ContextEdit[] = [];
  for (const edit of edits) {
    let next = edit;
    if (edit.type === "replace" && removesState(current, edit)) {
      let end = edit.end;
      while (current[end]?.role === "tool") end += 1;
      const before = current.slice(0, end);
      const anchor = current[Math.max(0, end - 1)]?.meta.id ?? String(end);
      const checkpoints = policies.flatMap((policy): UserMessage[] => {
        const message = policy.checkpoint?.(before, now, `checkpoint_${policy.name}_${anchor}`);
        return message ? [message] : [];
      });
      if (checkpoints.length > 0) next = { ...edit, end, messages: [...edit.messages, ...current.slice(edit.end, end), ...checkpoints] };
    }
    result.push(next);
    current = next.type === "append" ? [...current, ...next.messages] : [...current.slice(0, next.start), ...next.messages, ...current.slice(next.end)];
  }
  return result;
}

/** Whether the edit drops tool calls, or a checkpoint (which holds the state of calls already summarised). */
function removesState(messages: readonly Message[], edit: Extract<ContextEdit, { type: "replace" }>): boolean {
  const kept = new Set(edit.messages);
  return messages
    .slice(edit.start, edit.end)
    .some(
      (message) =>
        !kept.has(message) &&
        ((message.role === "assistant" && message.content.some((part) => part.type === "tool_call")) || derivedOf(message, "checkpoint") !== undefined),
    );
}
