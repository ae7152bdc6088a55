import { createIncrementalQwen3Renderer, createSegmentTokenizer, systemTextOf, type RenderedPromptPiece, type TokenCounter } from "../../tokens/index.js";
import { type ModelRequest, ConfigError } from "../../types/index.js";
import { compositionPartOf } from "./composition.js";
import type { PromptRenderer, SegmentOwner } from "./rendered-prompt.js";

/**
 * Renders requests with Qwen3's chat template incrementally (`createIncrementalQwen3Renderer`: each
 * message rendered once per context it can appear in) and tokenizes each segment (from one
 * `<|im_start|>` to the next) once, so a call costs O(new messages) in rendering and tokenization
 * instead of O(context). Every segment is attributed to the message it renders. Callers verify the
 * result against a full render (`renderModelRequest`) and fall back to it on a difference; the tests
 * compare both on the corpus.
 */
export function createQwen3PromptRenderer(counter: TokenCounter): PromptRenderer {
  if (counter.encode === undefined || counter.name !== "qwen3") {
    throw new ConfigError("tokenizer_unsupported", "The incremental Qwen3 renderer needs the exact Qwen3 tokenizer (getTokenCounter('qwen3')).");
  }
  const encode: (text: string) => number[] = counter.encode.bind(counter);
  const renderer = createIncrementalQwen3Renderer();
  const tokenizer = createSegmentTokenizer(counter);
  let lookups = 0;
  // The system text's own tokens, without the tool list: the header rendered without tools. One
  // entry, since a transcript's system prompt rarely changes.
  let system: { text: string; tokens: number } | undefined;
  const systemTokensOf = (text: string): number => {
    if (system?.text !== text) {
      const header = renderer.renderHeader(text);
      system = { text, tokens: header === "" ? 0 : encode(header).length };
    }
    return system.tokens;
  };

  return {
    name: "qwen3",
    render(request) {
      const texts: string[] = [];
      const owners: SegmentOwner[] = [];
      let group: string[] = [];
      const flush = () => {
        if (group.length > 0) texts.push(group.length === 1 ? group[0]! : group.join(""));
        group = [];
      };
      // A tool result that continues a user turn joins the segment before it.
      for (const piece of renderer.renderPieces(request)) {
        if (group.length === 0 || piece.text.startsWith("<|im_start|>")) {
          flush();
          owners.push(ownerOf(piece, request));
        }
        group.push(piece.text);
      }
      flush();
      lookups += texts.length;
      const { segments, total } = tokenizer.tokenizeSegments(texts);
      return { segments, owners, total, systemTokens: systemTokensOf(systemTextOf(request.system)) };
    },
    get cachedSegments() {
      return tokenizer.cachedSegments;
    },
    get segmentLookups() {
      return lookups;
    },
  };
}

function ownerOf(piece: RenderedPromptPiece, request: ModelRequest): SegmentOwner {
  if (piece.source !== "message") return { part: piece.source };
  const index = piece.messageIndex!;
  const message = request.messages[index];
  return { part: message === undefined ? "harness" : compositionPartOf(message), messageIndex: index };
}
