import type { TokenCounter } from "../../tokens/token-counter.js";
import { ConfigError } from "../../types/index.js";

/** A piece of a rendered prompt and its tokens. */
export interface PromptPiece {
  text: string;
  tokens: readonly number[];
}

/** One message of a rendered prompt (it starts at `<|im_start|>`), cut into pieces. */
export interface PromptSegment {
  text: string;
  tokenCount: number;
  pieces: readonly PromptPiece[];
}

export interface PromptPieces {
  segments: readonly PromptSegment[];
  total: number;
}

export interface PromptPieceTokenizer {
  tokenize(rendered: string): PromptPieces;
  /** Forgets whole messages (keeps the pieces): call between dialogues to bound memory. */
  forgetSegments(): void;
}

// Message boundaries: ChatML templates start every message with this special token, which the
// tokenizer isolates before any merging.
const messageStart = /(?=<\|im_start\|>)/;
// Line boundaries: Qwen3's pre-tokenizer regex (tokenizer.json) never lets a pre-token run from a
// newline into a following non-space character — the only patterns that can hold "\n" end there or
// continue with whitespace — and BPE merges stay inside pre-tokens. So tokens never span such a
// boundary, and tokenizing the lines separately gives exactly the tokens of the whole text. Finer
// pieces matter for reordered tools (each tool is one line of the system message) and for
// flattened histories (one growing message): without them every call re-tokenizes the whole message.
const lineStart = /(?<=\n)(?=\S)/;

/**
 * Exact, incremental tokenization for the benchmark: a rendered prompt is cut at message starts and
 * then at line starts; each distinct piece is tokenized once. Needs an exact counter whose
 * pre-tokenizer has the property above — Qwen3's; check another tokenizer's regex before using it.
 */
export function createPromptPieceTokenizer(counter: TokenCounter): PromptPieceTokenizer {
  const encode = counter.encode?.bind(counter);
  if (!encode) {
    throw new ConfigError("tokenizer_unsupported", `The ${counter.name} counter cannot encode; the kv-cache benchmark needs an exact tokenizer (qwen3).`);
  }
  const pieces = new Map<string, readonly number[]>();
  let segments = new Map<string, PromptSegment>();
  const pieceOf = (text: string): PromptPiece => {
    let tokens = pieces.get(text);
    if (tokens === undefined) {
      tokens = encode(text);
      pieces.set(text, tokens);
    }
    return { text, tokens };
  };
  const segmentOf = (text: string): PromptSegment => {
    let segment = segments.get(text);
    if (segment === undefined) {
      const parts = text.split(lineStart).map(pieceOf);
      segment = { text, pieces: parts, tokenCount: parts.reduce((sum, part) => sum + part.tokens.length, 0) };
      segments.set(text, segment);
    }
    return segment;
  };
  return {
    tokenize(rendered) {
      const parts = rendered.split(messageStart).map(segmentOf);
      return { segments: parts, total: parts.reduce((sum, segment) => sum + segment.tokenCount, 0) };
    },
    forgetSegments() {
      segments = new Map();
    },
  };
}

/** How much of `next` repeats the start of `previous`. */
export interface SharedPrefix {
  /** Tokens: what a token-level prefix cache (vLLM, llama.cpp, OpenAI) can reuse. */
  tokens: number;
  /** Tokens of whole messages only: what a cache keyed on message blocks (Anthropic) can reuse. */
  wholeMessageTokens: number;
}

/** The common prefix of two tokenized prompts, exact; equal messages and lines are skipped by text. */
export function sharedPromptPrefix(previous: PromptPieces, next: PromptPieces): SharedPrefix {
  let segmentIndex = 0;
  let wholeMessageTokens = 0;
  const segmentCount = Math.min(previous.segments.length, next.segments.length);
  while (segmentIndex < segmentCount && previous.segments[segmentIndex]!.text === next.segments[segmentIndex]!.text) {
    wholeMessageTokens += previous.segments[segmentIndex]!.tokenCount;
    segmentIndex++;
  }
  // From the first differing message on, walk both token streams until they part. They may part
  // only in a later piece or message (a piece that ends early), so the walk crosses boundaries.
  const before = piecesFrom(previous, segmentIndex);
  const after = piecesFrom(next, segmentIndex);
  let tokens = wholeMessageTokens;
  let pieceIndex = 0;
  while (pieceIndex < before.length && pieceIndex < after.length && before[pieceIndex]!.text === after[pieceIndex]!.text) {
    tokens += before[pieceIndex]!.tokens.length;
    pieceIndex++;
  }
  return { tokens: tokens + commonTokens(before, after, pieceIndex), wholeMessageTokens };
}

function piecesFrom(prompt: PromptPieces, segmentIndex: number): PromptPiece[] {
  return prompt.segments.slice(segmentIndex).flatMap((segment) => segment.pieces);
}

function commonTokens(before: readonly PromptPiece[], after: readonly PromptPiece[], start: number): number {
  let count = 0;
  let [beforePiece, beforeToken, afterPiece, afterToken] = [start, 0, start, 0];
  while (beforePiece < before.length && afterPiece < after.length) {
    const left = before[beforePiece]!.tokens;
    const right = after[afterPiece]!.tokens;
    if (beforeToken === left.length) [beforePiece, beforeToken] = [beforePiece + 1, 0];
    else if (afterToken === right.length) [afterPiece, afterToken] = [afterPiece + 1, 0];
    else if (left[beforeToken] !== right[afterToken]) break;
    else [count, beforeToken, afterToken] = [count + 1, beforeToken + 1, afterToken + 1];
  }
  return count;
}
