import type { Message } from "../../types/index.js";
import { stripToolResultLabels } from "../status-bar/annotate-tool-result.js";

/**
 * Marks text that a compression step produced (stubs, summaries, archives). Anything carrying it is
 * frozen: no later step compresses it again, except a full compaction that folds it into a new summary.
 */
export const COMPRESSED_MARKER = "[COMPRESSED]";

/** Marks a write-time preview of an over-budget result (the whole text is in the blob store). */
export const PREVIEW_MARKER = "[PREVIEW]";

/** The seed's exact marker for a summarised tool result: `[COMPRESSED] [Original: N chars → Compressed: M chars]`. */
export function compressedHeader(originalChars: number, compressedChars: number): string {
  return `${COMPRESSED_MARKER} [Original: ${originalChars} chars → Compressed: ${compressedChars} chars]`;
}


// The status bar stamps `[time] [Tool call #n for 'x'] ` in front of a result after compression's
// write-time processor ran: a marker behind those labels still marks the result.
export function isCompressedText(text: string): boolean {
  return stripToolResultLabels(text).startsWith(COMPRESSED_MARKER);
}

/** The first text of a message: a tool result's or user message's content, an assistant's first text part. */
export function leadingTextOf(message: Message): string {
  if (message.role !== "assistant") return message.content;
  const part = message.content.find((candidate) => candidate.type === "text");
  return part?.type === "text" ? part.text : "";
}

export function isCompressedMessage(message: Message): boolean {
  return isCompressedText(leadingTextOf(message));
}

/** A preview's text, also after the status bar stamped its time and call number in front of it. */
export function isPreviewText(text: string): boolean {
  return stripToolResultLabels(text).startsWith(PREVIEW_MARKER);
}

export function isPreviewMessage(message: Message): boolean {
  return message.role === "tool" && isPreviewText(message.content);
}

/** The blob a stub or preview names, so clearing a preview does not store its text a second time. */
export function blobIdIn(text: string): string | undefined {
  return /\bblob_[0-9a-f]{16}\b/.exec(text)?.[0];
}

/**
 * Ids of messages a compression step creates: derived from the originals (pure, deterministic, and
 * unique in the session because the suffix names the step and the batch).
 */
export function derivedId(originalId: string, step: string): string {
  return `${originalId}~${step}`;
}

/** The id of the message a derived one replaced (`m_1~c3` → `m_1`). */
export function originalIdOf(id: string): string {
  const cut = id.indexOf("~");
  return cut === -1 ? id : id.slice(0, cut);
}
