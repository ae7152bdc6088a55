import type { ToolMessage } from "../../../types/index.js";
import type { CompressionSettings } from "../compression-options.js";
import type { CompressionStats } from "../compression-stats.js";
import { CHARS_PER_TOKEN } from "../extractive-summary.js";
import { compressedHeader, derivedId, isCompressedMessage } from "../markers.js";
import { summarizeSafely } from "../summarize-safely.js";
import type { SummaryInput } from "../summarizer.js";
import { externalTagOf, type ExternalTag } from "../tagged-lines.js";

/** Results shorter than this are kept: a summary would not be much shorter. */
export const MIN_SUMMARY_CHARS = 2000;

export interface SummarizeResultOptions {
  settings: CompressionSettings;
  stats: CompressionStats;
  /** Summary length as a share of the original (the seed measured 10.9% individual, 4.3% combined, 3.0% context-aware). */
  ratio: number;
  /** What produced the result, e.g. `fetch {"url": "…"}`. */
  label: string;
  context?: Pick<SummaryInput, "task" | "query" | "known" | "citations">;
  citation?: string;
  /** Set when the summary replaces a result already in the context (a new message needs a new id). */
  batch?: number;
  now?: Date;
  signal?: AbortSignal;
}

export function shouldSummarize(result: ToolMessage, settings: CompressionSettings, minChars = MIN_SUMMARY_CHARS): boolean {
  return result.content.length >= minChars && !isCompressedMessage(result) && !settings.exemptTools.includes(result.toolName);
}

export function summaryTokensFor(chars: number, ratio: number): number {
  return Math.round(Math.min(2000, Math.max(100, (chars * ratio) / CHARS_PER_TOKEN)));
}

/**
 * A tool result replaced by its summary under the seed's marker, `[COMPRESSED] [Original: N chars
 * → Compressed: M chars]`, naming the blob that keeps the whole text for `recall`.
 */
export async function summarizeToolResult(result: ToolMessage, options: SummarizeResultOptions): Promise<ToolMessage> {
  const { settings, stats } = options;
  const blobId = settings.blobs.put(result.content);
  const summary = await summarizeSafely(
    settings.summarizer,
    {
      purpose: "tool-result",
      // A tagged result's lines stay between its tags in the summary (see `summarizeExtractively`).
      sources: [{ label: options.label, kind: "tool", text: result.content, isError: result.isError, ...(options.citation ? { citation: options.citation } : {}), ...externalOf(result) }],
      ...options.context,
      maxTokens: summaryTokensFor(result.content.length, options.ratio),
    },
    stats,
    options.signal,
  );
  stats.summarizedResults += 1;
  stats.tokensFreed += Math.max(0, settings.counter.count(result.content) - settings.counter.count(summary));
  const content = `${compressedHeader(result.content.length, summary.length)} ${options.label}; full text: ${blobId} (recall {"blob": "${blobId}"}).\n${summary}`;
  const derived = { kind: "compressed" as const, replaces: [result.meta.id], blobIds: [blobId], ...(options.batch === undefined ? {} : { batch: options.batch }) };
  const meta =
    options.batch === undefined
      ? { ...result.meta, derived }
      : { ...result.meta, id: derivedId(result.meta.id, `w${options.batch}`), origin: "harness" as const, createdAt: (options.now ?? new Date(0)).toISOString(), derived };
  return { ...result, content, meta };
}

/** The tags of a tagged result, as a summary source's `external` (nothing for an untagged one). */
export function externalOf(result: ToolMessage): { external?: ExternalTag[] } {
  const tag = externalTagOf(result);
  return tag ? { external: [tag] } : {};
}
