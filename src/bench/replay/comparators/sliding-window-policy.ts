import type { ContextPolicy } from "../../../context/context-policy.js";
import type { Message } from "../../../types/index.js";

export interface SlidingWindowOptions {
  /** Messages kept (the system prompt and tools are always sent). Default 20. */
  maxMessages?: number;
}

/**
 * The common naive policy: send only the newest N messages. The window never starts with a tool
 * result whose call was dropped (providers reject an orphan result with a 400), so it may keep
 * fewer than N. It slides on every call past N, so it breaks the prefix cache on every call.
 */
export function createSlidingWindowPolicy(options: SlidingWindowOptions = {}): ContextPolicy {
  const maxMessages = options.maxMessages ?? 20;
  return {
    name: "sliding-window",
    // A comparator replays one recorded agent; it has no children.
    inherit: "never",
    prepareContext(state) {
      const start = slidingWindowStart(state.messages, maxMessages);
      if (start === 0) return undefined;
      return [{ type: "replace", start: 0, end: start, messages: [], reason: `sliding window: dropped the ${start} oldest messages` }];
    },
  };
}

/** Index of the first message kept: the newest `maxMessages`, moved past any leading tool result. */
export function slidingWindowStart(messages: readonly Message[], maxMessages: number): number {
  let start = Math.max(0, messages.length - maxMessages);
  while (start > 0 && start < messages.length && messages[start]!.role === "tool") start++;
  return start;
}
