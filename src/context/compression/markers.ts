import { derivedOf, type Message } from "../../types/index.js";

/**
 * Text the model reads at the start of what compression produced (stubs, summaries, archives).
 * Only the model reads it: whether a message was compressed is decided by its `meta.derived`, which
 * the harness stores with it — a tool result that merely starts with this text is an ordinary result.
 */
export const COMPRESSED_MARKER = "[COMPRESSED]";

/** Text the model reads at the start of a write-time preview of an over-budget result. */
export const PREVIEW_MARKER = "[PREVIEW]";

/** The seed's exact marker for a summarised tool result: `[COMPRESSED] [Original: N chars → Compressed: M chars]`. */
export function compressedHeader(originalChars: number, compressedChars: number): string {
  return `${COMPRESSED_MARKER} [Original: ${originalChars} chars → Compressed: ${compressedChars} chars]`;
}

const compressedKinds = new Set(["stub", "compressed", "archive", "summary"]);

/**
 * Whether compression produced this message (a stub, a summarised result, an archive, a summary):
 * frozen, so no later step compresses it again — except a full compaction, which folds it into a new summary.
 */
export function isCompressedMessage(message: Message): boolean {
  const kind = message.meta.derived?.kind;
  return kind !== undefined && compressedKinds.has(kind);
}

/**
 * Text that stays visible whatever a compression batch does: the user's requests and what earlier
 * batches compressed (stubs, archives, summaries are frozen once sent). A new stub or archive line
 * need not repeat it. `undefined` for messages a batch may still replace — a preview or another
 * derived tool result is cleared into a stub, a harness message archived with its turn: counted as
 * shown, its lines would be left out of its own stub or of its neighbours' and then be nowhere.
 */
export function frozenTextOf(message: Message): string | undefined {
  const frozen = isCompressedMessage(message) || (message.role === "user" && message.meta.origin !== "harness");
  return frozen && (message.role === "user" || message.role === "tool") ? message.content : undefined;
}

/** A write-time preview of an over-budget result (the whole text is in the blob it names). */
export function isPreviewMessage(message: Message): boolean {
  return message.role === "tool" && derivedOf(message, "preview") !== undefined;
}

/** The blob holding the original of a preview or stub, so clearing a preview does not store its text again. */
export function blobIdOfMessage(message: Message): string | undefined {
  const derived = message.meta.derived;
  if (derived?.kind === "preview" || derived?.kind === "stub") return derived.blobId;
  if (derived?.kind === "compressed") return derived.blobIds[0];
  return undefined;
}

/** Every blob a message's metadata points to. */
export function blobIdsOfMessage(message: Message): string[] {
  const derived = message.meta.derived;
  if (derived?.kind === "compressed") return derived.blobIds;
  const single = blobIdOfMessage(message);
  return single === undefined ? [] : [single];
}

/** The first text of a message: a tool result's or user message's content, an assistant's first text part. */
export function leadingTextOf(message: Message): string {
  if (message.role !== "assistant") return message.content;
  const part = message.content.find((candidate) => candidate.type === "text");
  return part?.type === "text" ? part.text : "";
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

/**
 * The next compression batch number: one past the highest batch recorded in the trajectory's
 * metadata, so a restarted process never reuses a derived id an earlier process created.
 */
export function nextBatchNumber(messages: readonly Message[], atLeast = 1): number {
  let highest = 0;
  for (const message of messages) {
    const derived = message.meta.derived as { batch?: unknown } | undefined;
    if (typeof derived?.batch === "number" && derived.batch > highest) highest = derived.batch;
  }
  return Math.max(atLeast, highest + 1);
}
