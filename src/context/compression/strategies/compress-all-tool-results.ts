import { toolCallsOf, type Message, type ToolCallPart } from "../../../types/index.js";
import type { ContextEdit } from "../../context-policy.js";
import type { CompressionSettings } from "../compression-options.js";
import type { CompressionStats } from "../compression-stats.js";
import { editBetween } from "../edit-between.js";
import { citationOfCall, describeCall } from "../unit-source.js";
import { shouldSummarize, summarizeToolResult } from "./summarize-tool-result.js";

/** In a windowed batch, results this short stay: the marker line alone would not save much. */
const MIN_BATCH_CHARS = 500;

export interface BatchOptions {
  settings: CompressionSettings;
  stats: CompressionStats;
  ratio: number;
  batch: number;
  now: Date;
  reason: string;
  signal?: AbortSignal;
}

/**
 * The seed's windowed batch: every tool result not yet tagged `[COMPRESSED]` is summarised and
 * tagged, in one `replace` edit. Only result contents change, so every call keeps its result.
 */
export async function compressAllToolResults(messages: readonly Message[], options: BatchOptions): Promise<ContextEdit | undefined> {
  const calls = new Map<string, ToolCallPart>();
  for (const message of messages) if (message.role === "assistant") for (const call of toolCallsOf(message)) calls.set(call.id, call);
  const next = [...messages];
  for (const [index, message] of messages.entries()) {
    if (message.role !== "tool" || !shouldSummarize(message, options.settings, MIN_BATCH_CHARS)) continue;
    const call = calls.get(message.toolCallId);
    const citation = call ? citationOfCall(call) : undefined;
    next[index] = await summarizeToolResult(message, {
      settings: options.settings,
      stats: options.stats,
      ratio: options.ratio,
      label: call ? describeCall(call) : message.toolName,
      ...(citation ? { citation } : {}),
      batch: options.batch,
      now: options.now,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
  return editBetween(messages, next, options.reason);
}
