import { unionOfSources } from "../../external-content/message-provenance.js";
import type { Message, ToolMessage } from "../../../types/index.js";
import { toolCallsOf } from "../../../types/index.js";
import type { CompressionSettings } from "../compression-options.js";
import { emptyCompressionStats } from "../compression-stats.js";
import { createContextMeter } from "../context-meter.js";
import type { CompressionPolicy } from "../create-compression-policy.js";
import { editBetween } from "../edit-between.js";
import { keepFailures } from "../keep-failures.js";
import { compressedHeader, derivedId, isCompressedMessage, nextBatchNumber } from "../markers.js";
import { summarizeSafely } from "../summarize-safely.js";
import { citationOfCall, describeCall } from "../unit-source.js";
import { externalOf, MIN_SUMMARY_CHARS, summaryTokensFor } from "./summarize-tool-result.js";
import { windowedBatch } from "./windowed-policy.js";

/**
 * Strategy 3 of experiment 2-10, combined summaries: the results of one turn are summarised
 * together before they are first sent (4.3% of the original in the seed): the summary goes into
 * the first result, the others point to it. Facts several results repeat are kept once.
 */
export function createCombinedPolicy(settings: CompressionSettings): CompressionPolicy {
  const stats = emptyCompressionStats();
  const meter = createContextMeter(settings.counter);
  const sent = new Set<string>();
  let batch = 0;
  return {
    name: "combined",
    // A child runs too briefly to compact; its context is its own.
    inherit: "never",
    async prepareContext(state) {
      // Batch numbers name derived ids; continuing from the trajectory keeps them unique across restarts.
      batch = Math.max(batch, nextBatchNumber(state.messages) - 1);
      if (state.overflow) {
        return windowedBatch(state, { settings, stats, meter, batch: ++batch, reason: "combined compression: context overflow, every untagged result compressed" });
      }
      const fresh = freshResults(state.messages, sent);
      for (const message of state.messages) sent.add(message.meta.id);
      const total = fresh.reduce((sum, { message }) => sum + message.content.length, 0);
      if (fresh.length === 0 || total < MIN_SUMMARY_CHARS) return [];
      batch += 1;
      const calls = new Map(state.messages.flatMap((message) => (message.role === "assistant" ? toolCallsOf(message) : [])).map((call) => [call.id, call]));
      const sources = fresh.map(({ message }) => {
        const call = calls.get(message.toolCallId);
        const citation = call ? citationOfCall(call) : undefined;
        return { label: call ? describeCall(call) : message.toolName, kind: "tool" as const, text: message.content, isError: message.isError, ...(citation ? { citation } : {}), ...externalOf(message) };
      });
      const summary = await summarizeSafely(settings.summarizer, { purpose: "tool-results", sources, maxTokens: summaryTokensFor(total, 0.05) }, stats, state.signal);
      const blobs = fresh.map(({ message }) => settings.blobs.put(message.content));
      const next = [...state.messages];
      const first = fresh[0]!.message;
      for (const [position, { message, index }] of fresh.entries()) {
        const content =
          position === 0
            ? `${compressedHeader(total, summary.length)} Combined summary of ${fresh.length} results; full texts: ${blobs.join(", ")} (recall {"blob": "…"}).\n${summary}`
            : `${compressedHeader(message.content.length, 0)} Summarised together with the other results of this turn, in the result of call ${first.toolCallId}; full text: ${blobs[position]} (recall {"blob": "${blobs[position]}"}).` +
              (message.isError ? `\n${keepFailures("", [{ label: "this call", kind: "tool", text: message.content, isError: true, ...externalOf(message) }]).trim()}` : "");
        const derived = { kind: "compressed" as const, replaces: position === 0 ? fresh.map((entry) => entry.message.meta.id) : [message.meta.id], blobIds: position === 0 ? blobs : [blobs[position]!], batch };
        // The combined summary (position 0) is derived from every result: it carries all their untrusted sources.
        const untrusted = position === 0 ? unionOfSources(fresh.map((entry) => entry.message)) : [];
        const provenance = untrusted.length > 0 ? { provenance: { untrusted } } : {};
        next[index] = { ...message, content, meta: { ...message.meta, id: derivedId(message.meta.id, `m${batch}`), origin: "harness", createdAt: state.now.toISOString(), derived, ...provenance } };
      }
      stats.summarizedResults += fresh.length;
      stats.tokensFreed += Math.max(0, fresh.reduce((sum, { message }) => sum + settings.counter.count(message.content), 0) - settings.counter.count(summary));
      const reason = `combined compression: ${fresh.length} new results summarised together`;
      const edit = editBetween(state.messages, next, reason);
      if (edit === undefined) return [];
      stats.compactions += 1;
      stats.reasons.push(reason);
      return [edit];
    },
    stats: () => ({ ...stats, reasons: [...stats.reasons] }),
  };
}

/** The results appended since the last call (never sent yet), not already compressed. */
function freshResults(messages: readonly Message[], sent: ReadonlySet<string>): Array<{ message: ToolMessage; index: number }> {
  const fresh: Array<{ message: ToolMessage; index: number }> = [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role !== "tool") break;
    if (!sent.has(message.meta.id) && !isCompressedMessage(message)) fresh.unshift({ message, index });
  }
  return fresh;
}
