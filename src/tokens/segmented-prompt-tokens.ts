import { CtxkitError } from "../types/errors.js";
import type { TokenCounter } from "./token-counter.js";

/** A rendered prompt cut at message boundaries, each piece with its tokens. */
export interface SegmentedTokens {
  segments: ReadonlyArray<{ text: string; tokens: readonly number[] }>;
  total: number;
}

export interface SegmentTokenizer {
  /** Tokenizes a rendered prompt; pieces seen before (in any earlier prompt) are not tokenized again. */
  tokenize(rendered: string): SegmentedTokens;
  readonly cachedSegments: number;
}

// ChatML templates (Qwen3 and most open models) start every message with this special token. A
// tokenizer matches special tokens before any merging, so no token spans a boundary: the tokens of
// the whole prompt are exactly the tokens of its pieces, concatenated.
const messageStart = /(?=<\|im_start\|>)/;

/**
 * Exact, incremental token counting of rendered prompts: each message's rendering is tokenized once
 * and reused by every later prompt that contains it, so a long transcript costs O(new text) in
 * tokenization per call.
 */
export function createSegmentTokenizer(counter: TokenCounter): SegmentTokenizer {
  const encode = counter.encode?.bind(counter);
  if (!encode) {
    throw new CtxkitError("config_invalid", `The ${counter.name} counter cannot encode; segmented counting needs an exact tokenizer (qwen3, o200k).`);
  }
  const cache = new Map<string, readonly number[]>();
  return {
    tokenize(rendered) {
      let total = 0;
      const segments = rendered.split(messageStart).map((text) => {
        let tokens = cache.get(text);
        if (tokens === undefined) {
          tokens = encode(text);
          cache.set(text, tokens);
        }
        total += tokens.length;
        return { text, tokens };
      });
      return { segments, total };
    },
    get cachedSegments() {
      return cache.size;
    },
  };
}

/**
 * Tokens at the start of `next` identical to the start of `previous` — what a prefix cache could
 * reuse. Whole identical pieces are skipped by string comparison; only the first differing piece
 * is compared token by token.
 */
export function sharedPrefixTokens(previous: SegmentedTokens, next: SegmentedTokens): number {
  let shared = 0;
  const count = Math.min(previous.segments.length, next.segments.length);
  for (let index = 0; index < count; index++) {
    const before = previous.segments[index]!;
    const after = next.segments[index]!;
    if (before.text === after.text) {
      shared += before.tokens.length;
      continue;
    }
    const limit = Math.min(before.tokens.length, after.tokens.length);
    let position = 0;
    while (position < limit && before.tokens[position] === after.tokens[position]) position++;
    return shared + position;
  }
  return shared;
}
