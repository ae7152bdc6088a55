/** The parts of a request in prompt order, as the prefix guard compares them. */
export type LayerName = "request" | "system_static" | "system_session" | "tools" | "message" | "tail";

/** A place where a request stopped extending the previous one: everything after it is re-processed. */
export interface CacheBreak {
  layer: LayerName;
  /** The tool's or message's index within its layer. */
  index: number;
  /** First differing byte of the wire body (UTF-8); -1 when the body is intact and only the rendered prompt differs. */
  firstDifferingByte: number;
  /** First token that can no longer be reused (= the reusable prefix, in tokens). */
  firstDifferingToken: number;
  /** Tokens of the previous body that the cache can no longer serve. */
  lostTokens: number;
  /** Whether the token numbers are the prompt's own (template + tokenizer known) or the estimator's. */
  tokenSource?: "prompt" | "estimate";
  /** What showed the break: the wire body, the rendered prompt's tokens, or both. */
  detectedBy?: "wire" | "tokens" | "both";
  /** Why, when known (e.g. the chat template hid an earlier turn's reasoning). */
  detail?: string;
  /** A break the harness announced (compaction, a tool-set change the user asked for). */
  declared: boolean;
  reason?: string;
  /** A few characters either side of the first difference, before and after. */
  excerpt: { previous: string; next: string };
}
