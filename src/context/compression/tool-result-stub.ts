import type { ToolMessage } from "../../types/index.js";
import { extractErrorLines } from "./extract-identifiers.js";
import { extractTaggedFactLines } from "./extract-fact-lines.js";
import { COMPRESSED_MARKER, derivedId } from "./markers.js";
import { externalTagOf, renderTaggedLines, splitTaggedText, tagLinesCost } from "./tagged-lines.js";

export interface StubInput {
  result: ToolMessage;
  /** The blob holding the text the model saw. */
  blobId: string;
  /** The call that produced it, as the model wrote it (name and arguments). */
  callText: string;
  tokens: number;
  /** Identifiers visible elsewhere in the context: no line is kept for them. */
  isKnown?: (identifier: string) => boolean;
  /** Lines (trimmed) visible elsewhere in the context and frozen there (see `frozenTextOf`; never this result's own): not kept again. */
  knownLines?: ReadonlySet<string>;
  /**
   * Lines (trimmed) archives show. One of them left out here is recorded (`omittedAsShown`): an
   * archive may be condensed later, and must then keep it.
   */
  archiveLines?: ReadonlySet<string>;
  /** The kept lines' share of the original size (default `FACT_SHARE`). */
  factShare?: number;
  /** Names the batch, so the stub's id is new and unique in the session. */
  batch: number;
  now: Date;
}

/** Error results up to this size are kept whole: a failure and its reason are experience. */
const KEEP_WHOLE_ERROR_CHARS = 800;

/** The fact lines' share of the original size, and their limits in characters. */
export const FACT_SHARE = 0.3;
const MIN_FACT_CHARS = 300;
const MAX_FACT_CHARS = 6000;

/**
 * The frozen replacement of an old tool result: what was called, how big the result was, the blob
 * to recall it from, the error (for a failure) and its fact lines — each error line, and the first
 * line of every identifier not visible elsewhere, verbatim — within `factShare` of the original size
 * (at least 300, at most 6000 characters). Lines, not a list of names: a later step needs the fact.
 */
export function createToolResultStub(input: StubInput): ToolMessage {
  const { result, blobId } = input;
  const text = result.content;
  const lines = [
    `${COMPRESSED_MARKER} Cleared old result of ${input.callText} (message ${result.meta.id}): ${input.tokens} tokens, ${text.length} chars. ` +
      `Full text: ${blobId} — recall {"blob": "${blobId}"} to read it again.`,
  ];
  // A tagged result's lines stay between its tags, paid with them, and its tag lines are no facts:
  // the stub is still a tool result, but a tag kept alone would open a block it never closes.
  const tag = externalTagOf(result);
  if (result.isError) {
    if (text.length <= KEEP_WHOLE_ERROR_CHARS) lines.push(`Failed: ${text.trim()}`);
    else if (tag === undefined) lines.push(`Failed: ${extractErrorLines(text, 6).join("\n")}`);
    else {
      const inside = splitTaggedText(text, [tag]).flatMap((entry) => (entry.tag ? [entry.line] : []));
      lines.push(["Failed:", ...renderTaggedLines(extractErrorLines(inside.join("\n"), 6).map((line) => ({ line, tag })), "")].join("\n"));
    }
  }
  const body = lines.join("\n");
  const budget = Math.min(MAX_FACT_CHARS, Math.max(MIN_FACT_CHARS, Math.round(text.length * (input.factShare ?? FACT_SHARE))));
  // Lines left out because an archive shows them: recorded, so condensing the archive keeps them there.
  const omitted = new Set<string>();
  const onKnownLine = (line: string) => {
    if (input.archiveLines?.has(line) === true) omitted.add(line);
  };
  const facts = extractTaggedFactLines(splitTaggedText(text, tag ? [tag] : []), {
    maxChars: budget,
    isKnown: (identifier) => body.includes(identifier) || (input.isKnown?.(identifier) ?? false),
    tagCost: (factTag) => tagLinesCost(factTag, ""),
    ...(input.knownLines ? { knownLines: input.knownLines, onKnownLine } : {}),
  });
  return {
    role: "tool",
    toolCallId: result.toolCallId,
    toolName: result.toolName,
    isError: result.isError,
    content: facts.length === 0 ? body : `${body}\nKept lines:\n${renderTaggedLines(facts, "").join("\n")}`,
    meta: {
      id: derivedId(result.meta.id, `c${input.batch}`),
      origin: "harness",
      createdAt: input.now.toISOString(),
      derived: { kind: "stub", blobId, replaces: result.meta.id, batch: input.batch, ...(omitted.size > 0 ? { omittedAsShown: [...omitted] } : {}) },
      // The stub keeps the original's tag record: its kept lines are the same untrusted text (issue 24).
      ...(result.meta.external ? { external: result.meta.external } : {}),
      ...(result.meta.provenance ? { provenance: result.meta.provenance } : {}),
    },
  };
}
