import type { ToolMessage } from "../../types/index.js";
import { extractErrorLines, extractIdentifiers, formatIdentifierList } from "./extract-identifiers.js";
import { COMPRESSED_MARKER, derivedId } from "./markers.js";

export interface StubInput {
  result: ToolMessage;
  /** The blob holding the text the model saw. */
  blobId: string;
  /** The call that produced it, as the model wrote it (name and arguments). */
  callText: string;
  tokens: number;
  /** Names the batch, so the stub's id is new and unique in the session. */
  batch: number;
  now: Date;
}

/** Error results up to this size are kept whole: a failure and its reason are experience. */
const KEEP_WHOLE_ERROR_CHARS = 800;

/**
 * The frozen replacement of an old tool result: what was called, how big the result was, the blob
 * to recall it from, the error (for a failure) and the identifiers found in it, most useful first,
 * within about an eighth of the original size (at least 200, at most 3000 characters).
 */
export function createToolResultStub(input: StubInput): ToolMessage {
  const { result, blobId } = input;
  const text = result.content;
  const lines = [
    `${COMPRESSED_MARKER} Cleared old result of ${input.callText} (message ${result.meta.id}): ${input.tokens} tokens, ${text.length} chars. ` +
      `Full text: ${blobId} — recall {"blob": "${blobId}"} to read it again.`,
  ];
  if (result.isError) {
    const errors = text.length <= KEEP_WHOLE_ERROR_CHARS ? [text.trim()] : extractErrorLines(text, 6);
    lines.push(`Failed: ${errors.join("\n")}`);
  }
  const body = lines.join("\n");
  const budget = Math.min(3000, Math.max(200, Math.round(text.length / 8)));
  const identifiers = formatIdentifierList(
    extractIdentifiers(text).filter((identifier) => !body.includes(identifier)),
    budget,
  );
  return {
    role: "tool",
    toolCallId: result.toolCallId,
    toolName: result.toolName,
    isError: result.isError,
    content: identifiers === "" ? body : `${body}\nIdentifiers: ${identifiers}`,
    meta: {
      id: derivedId(result.meta.id, `c${input.batch}`),
      origin: "harness",
      createdAt: input.now.toISOString(),
      derived: { kind: "stub", blobId, replaces: result.meta.id, batch: input.batch },
    },
  };
}
