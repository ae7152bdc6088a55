import { createIncrementalQwen3Renderer } from "./incremental-qwen3-renderer.js";
import { qwen3PrefixHazards } from "./qwen3-prefix-hazards.js";
import { createSegmentTokenizer, sharedSegmentPrefix, type SegmentedTokens } from "./segmented-prompt-tokens.js";
import { toHfChatMessages } from "./to-hf-chat-messages.js";
import type { TokenCounter } from "./token-counter.js";
import type { LayerName, ModelRequest } from "../types/index.js";

/** Where a rendered piece of a prompt came from. */
export interface PromptPlace {
  layer: LayerName | "generation_prompt";
  index: number;
}

/**
 * A request's prompt as the model's chat template renders it, cut into pieces at message starts, each
 * with its exact tokens and the layer that produced it. `bodySegments` pieces come before the tail:
 * they are what the next prompt must repeat.
 */
export interface PromptTokens {
  segments: SegmentedTokens;
  places: readonly PromptPlace[];
  bodySegments: number;
  total: number;
  /** Explains a break at a message (a chat-template rule), when the template is one ctxkit knows. */
  explain?: (previous: PromptTokens, messageIndex: number) => string | undefined;
}

export interface PromptTokenBreak {
  layer: LayerName;
  index: number;
  detail?: string;
  previousText: string;
  nextText: string;
}

export interface PromptTokenComparison {
  /** Tokens of the previous body the next prompt starts with. */
  sharedTokens: number;
  lostTokens: number;
  break?: PromptTokenBreak;
}

/** Compares the previous prompt's body (up to its tail) with the next prompt, piece by piece. Pure. */
export function comparePromptTokens(previous: PromptTokens, next: PromptTokens): PromptTokenComparison {
  const body = previous.segments.segments.slice(0, previous.bodySegments);
  const bodyTokens = body.reduce((sum, segment) => sum + segment.tokens.length, 0);
  const shared = sharedSegmentPrefix({ segments: body, total: bodyTokens }, next.segments);
  if (shared.differingSegment === undefined) return { sharedTokens: shared.tokens, lostTokens: 0 };
  const place = previous.places[shared.differingSegment] ?? { layer: "message", index: 0 };
  const layer: LayerName = place.layer === "generation_prompt" ? "tail" : place.layer;
  const detail = layer === "message" ? next.explain?.(previous, place.index) : undefined;
  return {
    sharedTokens: shared.tokens,
    lostTokens: bodyTokens - shared.tokens,
    break: {
      layer,
      index: place.index,
      ...(detail ? { detail } : {}),
      previousText: (body[shared.differingSegment]?.text ?? "").slice(0, 80),
      nextText: (next.segments.segments[shared.differingSegment]?.text ?? "(removed)").slice(0, 80),
    },
  };
}

/**
 * Prompt tokens as a server running Qwen3's chat template builds them (vLLM, llama.cpp, Ollama, SGLang
 * serving Qwen3): rendered message by message and tokenized with the exact Qwen3 tokenizer, each
 * piece once. The header (system prompt and tools) is attributed to `system_static`.
 */
export function createQwen3PromptTokens(counter: TokenCounter): (request: ModelRequest) => PromptTokens {
  const renderer = createIncrementalQwen3Renderer();
  const tokenizer = createSegmentTokenizer(counter);
  const hfOf = new WeakMap<PromptTokens, ReturnType<typeof toHfChatMessages>>();
  return (request) => {
    const pieces = renderer.renderPieces(request);
    const segments = tokenizer.tokenizeSegments(pieces.map((piece) => piece.text));
    const places: PromptPlace[] = pieces.map((piece) =>
      piece.source === "header"
        ? { layer: "system_static", index: 0 }
        : piece.source === "generation_prompt"
          ? { layer: "generation_prompt", index: 0 }
          : piece.messageIndex === request.messages.length
            ? { layer: "tail", index: 0 }
            : { layer: "message", index: piece.messageIndex ?? 0 },
    );
    const bodySegments = places.findIndex((place) => place.layer === "tail" || place.layer === "generation_prompt");
    const hasSystem = pieces[0]?.source === "header" && (request.system.staticText !== "" || (request.system.sessionText ?? "") !== "");
    const tokens: PromptTokens = {
      segments,
      places,
      bodySegments: bodySegments === -1 ? places.length : bodySegments,
      total: segments.total,
      explain(previous, messageIndex) {
        const before = hfOf.get(previous);
        const after = hfOf.get(tokens);
        if (!before || !after) return undefined;
        const shift = hasSystem ? 1 : 0;
        const hazard = qwen3PrefixHazards(before, after).find((candidate) => candidate.messageIndex === messageIndex + shift);
        return hazard ? `Qwen3's chat template: ${hazard.detail}` : undefined;
      },
    };
    hfOf.set(tokens, toHfChatMessages(request));
    return tokens;
  };
}
