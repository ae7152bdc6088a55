import { createSegmentTokenizer, renderModelRequest, type TokenCounter } from "../../tokens/index.js";
import type { PromptRenderer } from "./rendered-prompt.js";

/**
 * Renders each request whole with the chat template (Qwen3's by default) and tokenizes it with the
 * segment tokenizer: exact by construction, but rendering costs O(context) per call. The fallback
 * when the incremental renderer's output differs from a full render, and the reference in tests.
 * It cannot attribute segments to messages, so `owners` is empty.
 */
export function createFullPromptRenderer(counter: TokenCounter, template?: string): PromptRenderer {
  const tokenizer = createSegmentTokenizer(counter);
  let lookups = 0;
  return {
    name: `${counter.name} (full render)`,
    render(request) {
      const segmented = tokenizer.tokenize(renderModelRequest(request, template === undefined ? {} : { template }));
      lookups += segmented.segments.length;
      return { segments: segmented.segments, owners: [], total: segmented.total, systemTokens: 0 };
    },
    get cachedSegments() {
      return tokenizer.cachedSegments;
    },
    get segmentLookups() {
      return lookups;
    },
  };
}
