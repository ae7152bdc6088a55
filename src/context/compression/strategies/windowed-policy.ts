import { applyEdits } from "../../compose-context-policies.js";
import { nextBatchNumber } from "../markers.js";
import type { ContextState } from "../../context-policy.js";
import type { CompressionSettings } from "../compression-options.js";
import { emptyCompressionStats, type CompressionStats } from "../compression-stats.js";
import { createContextMeter, type ContextMeter } from "../context-meter.js";
import type { CompressionPolicy } from "../create-compression-policy.js";
import type { ContextEdit } from "../../context-policy.js";
import { compressAllToolResults } from "./compress-all-tool-results.js";

/** Windowed summaries keep about a tenth of the original, like the individual ones. */
const WINDOWED_RATIO = 0.1;

/**
 * Strategy 6 of experiment 2-10, adaptive windowing: full content while there is room; once the
 * prompt passes the trigger (80% of the window, the seed's; less when the answer's room,
 * `reservedOutputTokens`, needs more), every untagged tool result is summarised in one batch and tagged
 * `[COMPRESSED] [Original: N chars → Compressed: M chars]`, so nothing is compressed twice.
 */
export function createWindowedPolicy(settings: CompressionSettings): CompressionPolicy {
  const meter = createContextMeter(settings.counter);
  const stats = emptyCompressionStats();
  let batch = 0;
  return {
    name: "windowed",
    // A child runs too briefly to compact; its context is its own.
    inherit: "never",
    async prepareContext(state) {
      // Batch numbers name derived ids; continuing from the trajectory keeps them unique across restarts.
      batch = Math.max(batch, nextBatchNumber(state.messages) - 1);
      const { tokens } = meter.measure(state);
      // The trigger share, or less to leave the answer its room (`reservedOutputTokens`), as the ctxkit policy does.
      const threshold = settings.triggerTokens;
      if (!state.overflow && tokens < threshold) {
        meter.remember(state.messages);
        return [];
      }
      const why = state.overflow ? "the provider reported a context overflow" : `the prompt reached about ${tokens} tokens, over ${Math.round((threshold / settings.contextWindow) * 100)}% of the window`;
      return windowedBatch(state, { settings, stats, meter, batch: ++batch, reason: `windowed compression: ${why}` });
    },
    stats: () => ({ ...stats, reasons: [...stats.reasons] }),
  };
}

export interface WindowedBatchInput {
  settings: CompressionSettings;
  stats: CompressionStats;
  meter: ContextMeter;
  batch: number;
  reason: string;
}

/** One windowed batch as the policy's edits (also the overflow fallback of the other strategies). */
export async function windowedBatch(state: ContextState, input: WindowedBatchInput): Promise<ContextEdit[]> {
  const edit = await compressAllToolResults(state.messages, {
    settings: input.settings,
    stats: input.stats,
    ratio: WINDOWED_RATIO,
    batch: input.batch,
    now: state.now,
    reason: input.reason,
    signal: state.signal,
  });
  if (edit === undefined) {
    input.meter.remember(state.messages);
    return [];
  }
  input.stats.compactions += 1;
  input.stats.reasons.push(input.reason);
  input.meter.remember(applyEdits(state.messages, [edit]));
  return [edit];
}
