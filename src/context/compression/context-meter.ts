import type { TokenCounter } from "../../tokens/token-counter.js";
import type { Message } from "../../types/index.js";
import type { ContextState } from "../context-policy.js";
import type { StablePrefix } from "../stable-prefix.js";

/** Tokens a chat template adds per message (role markers); tools add their JSON once. */
const PER_MESSAGE_OVERHEAD = 5;

export interface ContextMeasure {
  /** The best estimate of the next request's prompt tokens (without its tail). */
  tokens: number;
  /** Provider tokens per counted token (1 without a usage report): projects the size after edits. */
  scale: number;
}

export interface ContextMeter {
  /**
   * The last call's prompt tokens as the provider reported them, plus what was appended since —
   * or, without a report, a count of everything with the token counter.
   */
  measure(state: ContextState): ContextMeasure;
  /** Counted tokens of messages (counter units, not scaled). */
  countMessages(messages: readonly Message[]): number;
  countMessage(message: Message): number;
  /** Counted tokens of the system prompt and tool definitions. */
  countPrefix(prefix: StablePrefix): number;
  /** Remembers the context as it will be sent, so the next usage report can be matched to it. */
  remember(messages: readonly Message[]): void;
}

/**
 * Counts each message once: messages are immutable once in a trajectory, so a count is cached by
 * the object itself and a growing context costs only its new messages.
 */
export function createContextMeter(counter: TokenCounter): ContextMeter {
  const counts = new WeakMap<Message, number>();
  const prefixCounts = new WeakMap<StablePrefix, number>();
  let remembered: { count: number; lastId: string | undefined; tokens: number } | undefined;

  const countMessage = (message: Message): number => {
    let tokens = counts.get(message);
    if (tokens === undefined) {
      tokens = PER_MESSAGE_OVERHEAD + counter.count(textForCounting(message));
      counts.set(message, tokens);
    }
    return tokens;
  };
  const countMessages = (messages: readonly Message[]): number => messages.reduce((sum, message) => sum + countMessage(message), 0);
  const countPrefix = (prefix: StablePrefix): number => {
    let tokens = prefixCounts.get(prefix);
    if (tokens === undefined) {
      tokens = counter.count(prefix.system.staticText) + counter.count(prefix.system.sessionText ?? "") + counter.count(JSON.stringify(prefix.tools));
      prefixCounts.set(prefix, tokens);
    }
    return tokens;
  };

  return {
    countMessage,
    countMessages,
    countPrefix,
    measure(state) {
      const counted = countPrefix(state.prefix) + countMessages(state.messages);
      const usage = state.lastUsage?.inputTokens;
      const previous = remembered;
      const matches =
        previous !== undefined &&
        previous.count <= state.messages.length &&
        (previous.count === 0 || state.messages[previous.count - 1]?.meta.id === previous.lastId);
      if (usage === undefined || usage <= 0 || !matches) return { tokens: counted, scale: 1 };
      const appended = countMessages(state.messages.slice(previous.count));
      const scale = clamp(usage / Math.max(1, countPrefix(state.prefix) + previous.tokens), 0.5, 4);
      return { tokens: usage + Math.round(appended * scale), scale };
    },
    remember(messages) {
      remembered = { count: messages.length, lastId: messages.at(-1)?.meta.id, tokens: countMessages(messages) };
    },
  };
}

function textForCounting(message: Message): string {
  if (message.role !== "assistant") return message.content;
  return message.content
    .map((part) => (part.type === "text" ? part.text : part.type === "thinking" ? part.thinking : part.type === "provider_block" ? part.block : `${part.name} ${part.argumentsText}`))
    .join("\n");
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
