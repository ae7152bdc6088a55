import type { ModelRequest } from "../../types/index.js";
import type { CompositionPart } from "./composition.js";

/** A piece of a rendered prompt that starts at a message boundary, with its exact tokens. */
export interface PromptSegment {
  text: string;
  tokens: readonly number[];
}

/** Whose text a segment is: a trajectory message (index in `request.messages`; the tail is one past the last), or the template's own. */
export interface SegmentOwner {
  part: CompositionPart | "header" | "generation_prompt";
  messageIndex?: number;
}

/** A request rendered by a chat template and tokenized exactly, cut at message boundaries. */
export interface RenderedPrompt {
  segments: readonly PromptSegment[];
  /** Parallel to `segments`; empty when the renderer cannot attribute segments. */
  owners: readonly SegmentOwner[];
  total: number;
  /** Tokens of the header's system text alone (without the tool list), for the composition. */
  systemTokens: number;
}

export interface PromptRenderer {
  /** "qwen3 (incremental)" or "qwen3 (full render)": shown in reports. */
  readonly name: string;
  render(request: ModelRequest): RenderedPrompt;
  /** Distinct segments tokenized so far (each once). */
  readonly cachedSegments: number;
  readonly segmentLookups: number;
}

/**
 * Tokens at the start of `next` identical to the start of `previous` — what a prefix cache can
 * reuse — and the first segment of `next` that differs (undefined when `next` extends `previous`).
 * Segments reused from a renderer's cache are the same string objects, so equal ones compare in O(1).
 */
export function sharedSegmentPrefix(previous: RenderedPrompt, next: RenderedPrompt): { tokens: number; differingSegment?: number } {
  let shared = 0;
  const count = Math.min(previous.segments.length, next.segments.length);
  for (let index = 0; index < count; index++) {
    const before = previous.segments[index]!;
    const after = next.segments[index]!;
    if (before === after || before.text === after.text) {
      shared += before.tokens.length;
      continue;
    }
    const limit = Math.min(before.tokens.length, after.tokens.length);
    let position = 0;
    while (position < limit && before.tokens[position] === after.tokens[position]) position++;
    return { tokens: shared + position, differingSegment: index };
  }
  return previous.segments.length > next.segments.length ? { tokens: shared, differingSegment: count } : { tokens: shared };
}
