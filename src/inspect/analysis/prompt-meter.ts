import type { LayerDifference } from "../../context/prefix-guard/index.js";
import type { Message, ModelRequest } from "../../types/index.js";
import type { Composition } from "./composition.js";
import type { RenderedPrompt } from "./rendered-prompt.js";

export type InspectTokenizer = "qwen3" | "o200k" | "estimate";

export const INSPECT_TOKENIZERS: readonly InspectTokenizer[] = ["qwen3", "o200k", "estimate"];

/** One request's tokens as a meter counts them. */
export interface Measurement {
  request: ModelRequest;
  promptTokens: number;
  /** Tokens of the tail (status message); a cache is not expected to reuse them. */
  tailTokens: number;
  composition: Composition;
  /** The exact rendering (Qwen3 meter only). */
  rendered?: RenderedPrompt;
  /** Tokens of the system text, the tool list and each trajectory message (approximate meters only). */
  layerTokens?: { systemStatic: number; system: number; tools: number; messages: number[] };
}

export interface Reuse {
  /** Tokens at the start of the next prompt identical to the previous prompt. */
  tokens: number;
  /**
   * The prompts' tokens stop matching although no layer changed: the chat template renders an
   * earlier message differently once more messages follow (Qwen3 hides old reasoning).
   */
  templateBreak?: { messageIndex?: number };
}

/**
 * Counts a request's prompt tokens, where they come from, and how many of them repeat the previous
 * request. One meter per tokenizer: `qwen3` renders the real chat template and counts exactly;
 * `o200k` and `estimate` count message texts plus the chat format's wrappers (OpenAI does not
 * publish its format, so o200k is an approximation within a few percent). Meters keep caches, so
 * share one across the transcripts of a run.
 */
export interface PromptMeter {
  readonly tokenizer: InspectTokenizer;
  /** What the numbers are, for reports: "Qwen3 chat template, exact Qwen3 tokens". */
  readonly description: string;
  readonly exact: boolean;
  measure(request: ModelRequest): Measurement;
  /** `difference` is where the layers of `next` stop extending the body of `previous` (undefined: they do not). */
  reuse(previous: Measurement, next: Measurement, difference: LayerDifference | undefined): Reuse;
  /** Tokens of one message (for output tokens of a response when the transcript has no usage). */
  countMessage(message: Message): number;
  /** True when the measurement equals a full render of its request (cheap meters return true). */
  verify(measurement: Measurement): boolean;
  stats(): { cachedSegments: number; segmentLookups: number };
}
