export type { AnalyzedCall, AnalyzedTranscript, TranscriptCost, TranscriptTotals } from "./analyzed-transcript.js";
export { createTranscriptAnalyzer, type TranscriptAnalyzer, type TranscriptAnalyzerOptions } from "./analyze-transcript.js";
export type { BreakCause, CallBreak } from "./call-break.js";
export { COMPOSITION_PARTS, compositionPartOf, emptyComposition, type Composition, type CompositionPart } from "./composition.js";
export { computeOverallTotals, type OverallTotals } from "./overall-totals.js";
export { INSPECT_TOKENIZERS, type InspectTokenizer, type Measurement, type PromptMeter } from "./prompt-meter.js";
export { createQwen3PromptMeter } from "./qwen3-prompt-meter.js";
export { createApproximatePromptMeter } from "./approximate-prompt-meter.js";
export { createQwen3PromptRenderer } from "./qwen3-prompt-renderer.js";
export { createFullPromptRenderer } from "./full-prompt-renderer.js";
export type { PromptRenderer, PromptSegment, RenderedPrompt } from "./rendered-prompt.js";
// Moved to the tokens layer; still exported here, as part of ctxkit/inspect.
export { sharedSegmentPrefix } from "../../tokens/index.js";
export { createRequestLayerCache, type RequestLayerCache } from "./request-layer-cache.js";
export { toRenderedCallText, type RenderedCallText, type RenderedTextRange } from "./rendered-call-text.js";
export { diffCalls, type CallDiff } from "./call-diff.js";
