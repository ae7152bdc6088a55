import type { CompressionSettings } from "../compression-options.js";
import { nextBatchNumber } from "../markers.js";
import { emptyCompressionStats } from "../compression-stats.js";
import { createContextMeter } from "../context-meter.js";
import type { CompressionPolicy } from "../create-compression-policy.js";
import { describeCall } from "../unit-source.js";
import { shouldSummarize, summarizeToolResult } from "./summarize-tool-result.js";
import { windowedBatch } from "./windowed-policy.js";

/**
 * Strategy 2 of experiment 2-10, individual summaries: each tool result is summarised alone when it
 * is written (2–3 paragraphs in the seed, 10.9% of the original). Not task-aware, so pages that
 * repeat the same event each keep it. After a context overflow, every untagged result is compressed.
 */
export function createIndividualPolicy(settings: CompressionSettings): CompressionPolicy {
  const stats = emptyCompressionStats();
  const meter = createContextMeter(settings.counter);
  let batch = 0;
  return {
    name: "individual",
    // A child runs too briefly to compact; its context is its own.
    inherit: "never",
    async processToolResult(result, info) {
      if (!shouldSummarize(result, settings)) return result;
      return summarizeToolResult(result, { settings, stats, ratio: 0.1, label: describeCall(info.call) });
    },
    async prepareContext(state) {
      // Batch numbers name derived ids; continuing from the trajectory keeps them unique across restarts.
      batch = Math.max(batch, nextBatchNumber(state.messages) - 1);
      if (!state.overflow) return [];
      return windowedBatch(state, { settings, stats, meter, batch: ++batch, reason: "individual compression: context overflow, every untagged result compressed" });
    },
    stats: () => ({ ...stats, reasons: [...stats.reasons] }),
  };
}
