import { emptyCompressionStats } from "../compression-stats.js";
import type { CompressionPolicy } from "../create-compression-policy.js";

/** Strategy 1 of experiment 2-10: every result kept whole (the baseline that overflows). */
export function createNonePolicy(): CompressionPolicy {
  return { name: "none", stats: emptyCompressionStats };
}
