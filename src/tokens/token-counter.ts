/**
 * Counts tokens of text for one tokenizer. `exact` counters reproduce the model's tokenizer byte for
 * byte (and offer `encode`); the estimator does not, and says so, so callers can add a safety margin.
 * Counting is synchronous: exact counters load their vocabulary lazily on first use (about 0.5–1.5 s)
 * and share it module-wide.
 */
export interface TokenCounter {
  /** "qwen3", "o200k", "cl100k" or "estimate". */
  readonly name: string;
  readonly exact: boolean;
  count(text: string): number;
  /** Token ids, for exact counters only (special tokens such as `<|im_start|>` are recognised). */
  encode?(text: string): number[];
  /** The text of token ids (exact counters that can decode); the inverse of `encode`. */
  decode?(tokens: readonly number[]): string;
}

export type TokenCounterName = "qwen3" | "o200k" | "cl100k" | "estimate";
