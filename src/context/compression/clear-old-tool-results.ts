import { derivedOf, toolCallsOf, type Message, type ToolCallPart } from "../../types/index.js";
import type { BlobCollector } from "./blob-store.js";
import { blobIdOfMessage, frozenTextOf, isCompressedMessage, isPreviewMessage } from "./markers.js";
import { identifierCoverage } from "./archive-coverage.js";
import { createToolResultStub } from "./tool-result-stub.js";
import { describeCall } from "./unit-source.js";

export interface ClearingOptions {
  /** The newest this-many tokens of tool output stay as they are. */
  keepRecentToolTokens: number;
  countMessage: (message: Message) => number;
  blobs: Pick<BlobCollector, "put">;
  batch: number;
  now: Date;
  /** The stubs' fact lines' share of the original (see `createToolResultStub`). */
  factShare?: number;
  /** Results from this index on are never cleared (the newest turn: the model has not seen them yet). */
  protectFrom?: number;
  /** Clear only results whose stub keeps at least this share of their identifiers (see `identifierCoverage`). */
  minCoverage?: number;
}

export interface ClearingPlan {
  messages: Message[];
  cleared: number;
  /** Counted tokens removed (counter units). */
  freedTokens: number;
}

/** Results shorter than this are left alone: their stub would be about as long. */
const MIN_CLEARABLE_CHARS = 600;

/**
 * Replaces tool results older than the newest `keepRecentToolTokens` of tool output by stubs
 * (microcompaction). Only the results change — each stays a `tool` message answering the same
 * call — so pairs are never split. Stubs, summaries and results already cleared are left alone; a
 * preview's text is not stored again (its blob already holds the whole result).
 */
export function planToolResultClearing(messages: readonly Message[], options: ClearingOptions): ClearingPlan {
  const calls = new Map<string, ToolCallPart>();
  for (const message of messages) if (message.role === "assistant") for (const call of toolCallsOf(message)) calls.set(call.id, call);

  const knownLines = frozenLines(messages);
  const archiveLines = frozenLines(messages.filter((message) => derivedOf(message, "archive") !== undefined));
  const next = [...messages];
  let recentTokens = 0;
  let cleared = 0;
  let freedTokens = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role !== "tool" || isCompressedMessage(message)) continue;
    const tokens = options.countMessage(message);
    if (recentTokens < options.keepRecentToolTokens || index >= (options.protectFrom ?? messages.length)) {
      recentTokens += tokens;
      continue;
    }
    if (message.content.length < MIN_CLEARABLE_CHARS) continue;
    const blobId = (isPreviewMessage(message) ? blobIdOfMessage(message) : undefined) ?? options.blobs.put(message.content);
    const call = calls.get(message.toolCallId);
    const stub = createToolResultStub({
      result: message,
      blobId,
      callText: call ? describeCall(call) : message.toolName,
      tokens,
      knownLines,
      archiveLines,
      ...(options.factShare === undefined ? {} : { factShare: options.factShare }),
      batch: options.batch,
      now: options.now,
    });
    const saved = tokens - options.countMessage(stub);
    if (saved <= 0) continue;
    if (options.minCoverage !== undefined && identifierCoverage(message.content, stub.content) < options.minCoverage) continue;
    next[index] = stub;
    cleared += 1;
    freedTokens += saved;
  }
  return { messages: next, cleared, freedTokens };
}

/** The frozen lines of the context (see `frozenTextOf`), trimmed: a stub need not repeat them. */
function frozenLines(messages: readonly Message[]): Set<string> {
  const lines = new Set<string>();
  for (const message of messages) {
    for (const line of (frozenTextOf(message) ?? "").split("\n")) if (line.trim() !== "") lines.add(line.trim());
  }
  return lines;
}
