import type { ContextPolicy } from "../../../context/context-policy.js";
import type { Message } from "../../../types/index.js";

/**
 * The cost floor: every call sends only what no policy can leave out — the system prompt and tools
 * (the prefix, always sent), the task (the first user message) and the newest turn (the newest
 * assistant message and everything after it: its tool results, a user's reply). Nothing older is
 * kept, not even as a summary, so no summary is paid for either.
 *
 * It is a reference, not an agent: no policy that lets the model see the task and what it just did
 * can send fewer prompt tokens, so its cost is a floor under every policy's, and its line recall
 * shows what that floor forgets. A cost goal below it cannot be met by any policy; one just above it
 * can be met only by forgetting about as much.
 */
export function createFloorPolicy(): ContextPolicy {
  return {
    name: "floor",
    // A comparator replays one recorded agent; it has no children.
    inherit: "never",
    prepareContext(state) {
      const start = newestTurnStart(state.messages);
      const taskEnd = taskMessages(state.messages);
      if (start <= taskEnd) return undefined;
      return [{ type: "replace", start: taskEnd, end: start, messages: [], reason: `cost floor: dropped the ${start - taskEnd} messages between the task and the newest turn` }];
    },
  };
}

/** How many leading messages are the task: the first user message (0 when the run starts otherwise). */
function taskMessages(messages: readonly Message[]): number {
  return messages[0]?.role === "user" ? 1 : 0;
}

/**
 * Index of the newest turn's first message: the newest assistant message, or the end when there is
 * none (nothing older can go). A turn's tool results always stay with their call.
 */
export function newestTurnStart(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (messages[index]!.role === "assistant") return index;
  }
  return messages.length;
}
