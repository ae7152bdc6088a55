import { createMessageTokenCache, type TokenCounter } from "../../tokens/index.js";
import type { Message, ModelRequest } from "../../types/index.js";

/**
 * Token counts for replayed requests. Each message object is counted once (messages are shared,
 * unchanged, by every policy replaying the same run, and a replacement is a new object), backed
 * by the per-id-and-content cache of the tokens layer; only system and tools are counted per run.
 */
export interface PromptMeter {
  readonly counter: TokenCounter;
  messageTokens(message: Message): number;
  /** System prompt and tool definitions, with the chat format's wrappers. */
  prefixTokens(request: ModelRequest): number;
  requestTokens(request: ModelRequest): number;
  /**
   * Tokens at the start of `next` that `previous` sent identically — what a prefix cache reuses.
   * Measured per message: a message that changed is not reusable at all, even if its first tokens
   * are the same (an underestimate of at most one message per call, the same for every policy).
   */
  reusablePrefixTokens(previous: ModelRequest | undefined, next: ModelRequest): number;
}

export function createPromptMeter(counter: TokenCounter): PromptMeter {
  const cache = createMessageTokenCache(counter);
  const byObject = new WeakMap<Message, number>();
  const prefixes = new WeakMap<object, { system: object; tokens: number }>();

  const messageTokens = (message: Message): number => {
    let tokens = byObject.get(message);
    if (tokens === undefined) {
      tokens = cache.countMessage(message);
      byObject.set(message, tokens);
    }
    return tokens;
  };
  const prefixTokens = (request: ModelRequest): number => {
    // Replay passes the same system and tools objects for every call of a run.
    const known = prefixes.get(request.tools);
    if (known !== undefined && known.system === request.system) return known.tokens;
    const tokens = cache.countRequest({ ...request, messages: [], tail: undefined });
    prefixes.set(request.tools, { system: request.system, tokens });
    return tokens;
  };

  return {
    counter,
    messageTokens,
    prefixTokens,
    requestTokens(request) {
      let total = prefixTokens(request);
      for (const message of request.messages) total += messageTokens(message);
      if (request.tail !== undefined) total += messageTokens(request.tail);
      return total;
    },
    reusablePrefixTokens(previous, next) {
      if (previous === undefined || previous.system !== next.system || previous.tools !== next.tools) return 0;
      let reusable = prefixTokens(next);
      const count = Math.min(previous.messages.length, next.messages.length);
      for (let index = 0; index < count; index++) {
        const before = previous.messages[index]!;
        const after = next.messages[index]!;
        if (before !== after && !sameVisibleMessage(before, after)) break;
        reusable += messageTokens(after);
      }
      return reusable;
    },
  };
}

/** Equal as sent: everything but ctxkit's own metadata, which no provider sees. */
function sameVisibleMessage(left: Message, right: Message): boolean {
  const { meta: _left, ...leftVisible } = left;
  const { meta: _right, ...rightVisible } = right;
  return JSON.stringify(leftVisible) === JSON.stringify(rightVisible);
}
