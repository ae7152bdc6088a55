import type { TokenizedSegment } from "../../tokens/index.js";
import type { ModelRequest } from "../../types/index.js";
import type { CompositionPart } from "./composition.js";

/** A piece of a rendered prompt that starts at a message boundary, with its exact tokens. */
export type PromptSegment = TokenizedSegment;

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
  /** "qwen3" (incremental) or "qwen3 (full render)": shown in reports. */
  readonly name: string;
  render(request: ModelRequest): RenderedPrompt;
  /** Distinct segments tokenized so far (each once). */
  readonly cachedSegments: number;
  readonly segmentLookups: number;
}
