import type { Message } from "../../../types/index.js";
import type { CompressionSettings } from "../compression-options.js";
import { emptyCompressionStats } from "../compression-stats.js";
import { createContextMeter } from "../context-meter.js";
import type { CompressionPolicy } from "../create-compression-policy.js";
import { isCompressedMessage, leadingTextOf, nextBatchNumber } from "../markers.js";
import { citationOfCall, describeCall } from "../unit-source.js";
import { shouldSummarize, summarizeToolResult } from "./summarize-tool-result.js";
import { windowedBatch } from "./windowed-policy.js";

/** How much of what is already known guides a summary (the seed's "Current context: {context}"). */
const MAX_KNOWN_CHARS = 6000;

/**
 * Strategies 4 and 5 of experiment 2-10, context-aware compression: each result is summarised when
 * it is written, guided by the task, by the call that produced it ("Given the search query:
 * {query}") and by what the context already holds, so known facts are not repeated (3.0% of the
 * original in the seed). With `citations`, every kept fact names its source URL or path.
 */
export function createContextAwarePolicy(settings: CompressionSettings, options: { citations: boolean }): CompressionPolicy {
  const stats = emptyCompressionStats();
  const meter = createContextMeter(settings.counter);
  let context: readonly Message[] = [];
  // Summaries written since the last call: results of the same turn know about each other too.
  let recent: string[] = [];
  let batch = 0;
  return {
    name: options.citations ? "context-aware-citations" : "context-aware",
    // A child runs too briefly to compact; its context is its own.
    inherit: "never",
    async processToolResult(result, info) {
      if (!shouldSummarize(result, settings)) return result;
      const citation = options.citations ? (citationOfCall(info.call) ?? `${info.call.name} call ${info.call.id}`) : undefined;
      const known = [knownOf(context), ...recent].join("\n").slice(-MAX_KNOWN_CHARS);
      const summarized = await summarizeToolResult(result, {
        settings,
        stats,
        ratio: 0.03,
        label: describeCall(info.call),
        context: { task: taskOf(context), query: describeCall(info.call), known, citations: options.citations },
        ...(citation ? { citation } : {}),
      });
      recent.push(summarized.content.split("\n").slice(1).join("\n"));
      return summarized;
    },
    async prepareContext(state) {
      // Batch numbers name derived ids; continuing from the trajectory keeps them unique across restarts.
      batch = Math.max(batch, nextBatchNumber(state.messages) - 1);
      context = state.messages;
      recent = [];
      if (!state.overflow) return [];
      return windowedBatch(state, { settings, stats, meter, batch: ++batch, reason: `${options.citations ? "context-aware-citations" : "context-aware"} compression: context overflow, every untagged result compressed` });
    },
    stats: () => ({ ...stats, reasons: [...stats.reasons] }),
  };
}

/** The first request and the latest one, when they differ. */
function taskOf(messages: readonly Message[]): string {
  const requests = messages.filter((message) => message.role === "user" && message.meta.origin !== "harness").map((message) => leadingTextOf(message));
  const first = requests[0] ?? "";
  const last = requests.at(-1) ?? "";
  return last === first ? first : `${first}\nLatest request: ${last}`;
}

/** The summaries already in the context, newest last, within MAX_KNOWN_CHARS. */
function knownOf(messages: readonly Message[]): string {
  const summaries = messages.filter(isCompressedMessage).map((message) => leadingTextOf(message).split("\n").slice(1).join("\n"));
  let known = "";
  for (const summary of summaries.reverse()) {
    if (known.length + summary.length > MAX_KNOWN_CHARS) break;
    known = `${summary}\n${known}`;
  }
  return known.trim();
}
