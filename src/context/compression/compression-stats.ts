/** What a compression policy did so far (for `ctxkit replay`, status displays and tests). */
export interface CompressionStats {
  /** Batches that changed already-sent context (each one declared cache break). */
  compactions: number;
  /** Compactions that did not get the context under the trigger, or found nothing to compress. */
  failedCompactions: number;
  /** Old tool results replaced by stubs. */
  clearedResults: number;
  /** Tool results over budget stored whole and shown as a preview at write time. */
  budgetedResults: number;
  /** Tool results summarised (individually, together, or in a windowed batch). */
  summarizedResults: number;
  /** Turns condensed into archival summary lines. */
  archivedTurns: number;
  /** Full compactions (sectioned summaries of everything but the first request and the recent turns). */
  fullCompactions: number;
  /** Model summaries that failed and were replaced by the deterministic fallback. */
  summarizerFailures: number;
  /** Characters of noise (ANSI codes, progress redraws, repeated lines) removed at write time. */
  noiseCharsRemoved: number;
  /** Estimated tokens the edits and write-time reductions removed from the context. */
  tokensFreed: number;
  /** Compactions taken early because the prompt cache had gone cold. */
  coldCacheCompactions: number;
  /** Reasons of the edits, in order. */
  reasons: string[];
}

export function emptyCompressionStats(): CompressionStats {
  return {
    compactions: 0,
    failedCompactions: 0,
    clearedResults: 0,
    budgetedResults: 0,
    summarizedResults: 0,
    archivedTurns: 0,
    fullCompactions: 0,
    summarizerFailures: 0,
    noiseCharsRemoved: 0,
    tokensFreed: 0,
    coldCacheCompactions: 0,
    reasons: [],
  };
}
