import type { ContextPolicy } from "../../../context/context-policy.js";
import type { AssistantMessage, Message } from "../../../types/index.js";

export interface AnthropicClearThinkingOptions {
  /**
   * `keep`: the newest assistant turns whose thinking stays, or "all". Default 1, the documented
   * `{type: "thinking_turns", value: 1}` (newer Opus and Sonnet models keep all by default; set it
   * to compare those).
   */
  keepThinkingTurns?: number | "all";
}

/**
 * Anthropic's `clear_thinking_20251015` as its documentation states the rule
 * (https://platform.claude.com/docs/en/build-with-claude/context-editing, "Thinking block clearing"):
 * `keep` "defines how many recent assistant turns with thinking blocks to preserve"; the thinking of
 * older assistant turns is removed before the prompt reaches the model. There is no trigger: it
 * applies on every request, so each new turn with thinking pushes the oldest kept one out — and
 * "when thinking blocks are cleared, the cache is invalidated at the point where clearing occurs",
 * which replay records as the declared break it is. An assistant turn here is one assistant message
 * (the unit the `messages` array has). The rest of each message (text, tool calls) stays.
 */
export function createAnthropicClearThinkingPolicy(options: AnthropicClearThinkingOptions = {}): ContextPolicy {
  const keep = options.keepThinkingTurns ?? 1;
  if (keep !== "all" && !(Number.isInteger(keep) && keep > 0)) throw new RangeError(`keepThinkingTurns must be a whole number > 0 or "all" (the API's rule), got ${String(keep)}.`);
  return {
    name: "anthropic-clear-thinking",
    // A replay comparator: children (which replay never runs) get nothing.
    inherit: "never",
    prepareContext(state) {
      if (keep === "all") return undefined;
      const withThinking = state.messages.flatMap((message, index) => (hasThinking(message) ? [index] : []));
      const cleared = withThinking.slice(0, Math.max(0, withThinking.length - keep));
      if (cleared.length === 0) return undefined;
      const start = cleared[0]!;
      const end = cleared.at(-1)! + 1;
      const selected = new Set(cleared);
      const messages = state.messages.slice(start, end).map((message, offset) => (selected.has(start + offset) ? withoutThinking(message as AssistantMessage) : message));
      return [{ type: "replace", start, end, messages, reason: `server-side clear_thinking_20251015: the thinking of ${cleared.length} assistant turns cleared (keep ${keep})` }];
    },
  };
}

function hasThinking(message: Message): boolean {
  return message.role === "assistant" && message.content.some((part) => part.type === "thinking");
}

function withoutThinking(message: AssistantMessage): AssistantMessage {
  return { ...message, content: message.content.filter((part) => part.type !== "thinking") };
}
