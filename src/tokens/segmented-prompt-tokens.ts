import { ConfigError } from "../types/errors.js";
import type { TokenCounter } from "./token-counter.js";
import { commonPrefixLength } from "./common-prefix-tokens.js";

/** A piece of a rendered prompt that starts at a message boundary, with its exact tokens. */
export interface TokenizedSegment {
  text: string;
  tokens: readonly number[];
}

/** A rendered prompt cut at message boundaries, each piece with its tokens. */
export interface SegmentedTokens {
  segments: readonly TokenizedSegment[];
  total: number;
}

export interface SegmentTokenizer {
  /** Tokenizes a rendered prompt; pieces seen before (in any earlier prompt) are not tokenized again. */
  tokenize(rendered: string): SegmentedTokens;
  /**
   * The same for a prompt already cut into segments, each starting at a message boundary (a
   * renderer that builds prompts message by message). A segment seen before is returned as the
   * same object.
   */
  tokenizeSegments(texts: readonly string[]): SegmentedTokens;
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
    throw new ConfigError("tokenizer_unsupported", `The ${counter.name} counter cannot encode; segmented counting needs an exact tokenizer (qwen3, o200k).`);
  }
  const cache = new Map<string, TokenizedSegment>();
  const tokenizeSegments = (texts: readonly string[]): SegmentedTokens => {
    let total = 0;
    const segments = texts.map((text) => {
      let segment = cache.get(text);
      if (segment === undefined) {
        segment = { text, tokens: encode(text) };
        cache.set(text, segment);
      }
      total += segment.tokens.length;
      return segment;
    });
    return { segments, total };
  };
  return {
    tokenize: (rendered) => tokenizeSegments(rendered.split(messageStart)),
    tokenizeSegments,
    get cachedSegments() {
      return cache.size;
    },
  };
}

/**
 * Tokens at the start of `next` identical to the start of `previous` — what a prefix cache could
 * reuse — and the first segment of `next` that differs (undefined when `next` extends `previous`).
 * Whole identical pieces are skipped by string comparison (in O(1) for segments a tokenizer
 * returned from its cache); only the first differing piece is compared token by token. Exact for
 * segments cut at message starts: a segment's tokens never run on into the next message.
 */
export function sharedSegmentPrefix(previous: SegmentedTokens, next: SegmentedTokens): { tokens: number; differingSegment?: number } {
  let shared = 0;
  const count = Math.min(previous.segments.length, next.segments.length);
  for (let index = 0; index < count; index++) {
    const before = previous.segments[index]!;
    const after = next.segments[index]!;
    if (before === after || before.text === after.text) {
      shared += before.tokens.length;
      continue;
    }
    return { tokens: shared + commonPrefixLength(before.tokens, after.tokens), differingSegment: index };
  }
  return previous.segments.length > next.segments.length ? { tokens: shared, differingSegment: count } : { tokens: shared };
}

/** The tokens of `sharedSegmentPrefix`: what a prefix cache could reuse of `previous` in `next`. */
export function sharedPrefixTokens(previous: SegmentedTokens, next: SegmentedTokens): number {
  return sharedSegmentPrefix(previous, next).tokens;
}
