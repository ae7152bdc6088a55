import { readFile } from "node:fs/promises";
import { type ToolDefinition, TranscriptError } from "../../types/index.js";
import { TRANSCRIPT_FORMATS, type ImportedTranscript, type ImportResult, type TranscriptFormat } from "../imported-transcript.js";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importTranscript } from "./import-transcript.js";
import { stripByteOrderMark } from "../../types/byte-order-mark.js";
import { describeInvalidUtf8, findInvalidUtf8, invalidUtf8Note, type InvalidUtf8Position } from "./find-invalid-utf8.js";
import { importOpenHandsV1 } from "./import-openhands-v1.js";
import { findOpenHandsConversationFolder, readOpenHandsConversationFolder } from "./read-openhands-conversation-folder.js";

export interface ImportTranscriptFilesOptions {
  /** The format of every file, or "auto" (the default) to detect each file's own. */
  format?: TranscriptFormat | "auto";
  /**
   * Tools the model saw, for formats that do not record them (τ-bench, Claude Code, Codex):
   * applied to every call of transcripts whose `toolsKnown` is false, which then becomes true.
   */
  tools?: ToolDefinition[];
}

/**
 * Reads and imports transcript files; a path may also be an OpenHands V1 conversation folder (or its
 * `events/` folder), read as one run. A file that cannot be read, or a record that does not fit its
 * format, becomes a problem and the rest is still imported; a file whose format cannot be detected
 * throws `transcript_invalid`, because only the caller can say what it is (`--format`).
 */
export async function importTranscriptFiles(paths: string[], options: ImportTranscriptFilesOptions = {}): Promise<ImportResult> {
  const format = options.format ?? "auto";
  if (format !== "auto" && !TRANSCRIPT_FORMATS.includes(format)) {
    throw new TranscriptError(`Unknown transcript format ${JSON.stringify(format)}. Set the \`format\` option (CLI: --format) to "auto" or one of: ${TRANSCRIPT_FORMATS.join(", ")}.`);
  }
  const result: ImportResult = { transcripts: [], problems: [] };
  for (const path of paths) {
    // OpenHands V1 persists a conversation as a folder (base_state.json, events/event-*.json): one run.
    const conversation = format === "auto" || format === "openhands" ? await findOpenHandsConversationFolder(path) : undefined;
    if (conversation !== undefined) {
      const read = await readOpenHandsConversationFolder(conversation);
      const imported = importOpenHandsV1(read.events, conversation);
      result.transcripts.push(...imported.transcripts);
      result.problems.push(...read.problems, ...imported.problems);
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      result.problems.push({ file: path, reason: `cannot read the file (${(error as Error).message})` });
      continue;
    }
    const text = stripByteOrderMark(bytes.toString("utf8"));
    if (text.trim() === "") {
      result.problems.push({ file: path, reason: "the file is empty" });
      continue;
    }
    const imported = importTranscript(text, path, format === "auto" ? detectTranscriptFormat(path, text) : format);
    // A bad byte in a real transcript (a cut multi-byte character, a tool's binary output) leaves the rest worth
    // reading, unlike in a session file, which is refused: imported with a note saying where, not silently.
    const invalid = findInvalidUtf8(bytes);
    if (invalid !== undefined) markInvalidUtf8(imported, path, invalid);
    result.transcripts.push(...imported.transcripts);
    result.problems.push(...imported.problems);
  }
  if (options.tools !== undefined) for (const transcript of result.transcripts) applyTools(transcript, options.tools);
  makeIdsUnique(result.transcripts);
  return result;
}

/** Each transcript of the file gets the note; a file that gave none gets a problem, so it is said somewhere. */
function markInvalidUtf8(imported: ImportResult, file: string, position: InvalidUtf8Position): void {
  const note = invalidUtf8Note(file, position);
  for (const transcript of imported.transcripts) {
    transcript.invalidUtf8 = position;
    transcript.notes = [...(transcript.notes ?? []), note];
  }
  if (imported.transcripts.length === 0) imported.problems.push({ file, line: position.line, reason: describeInvalidUtf8(position) });
}

function applyTools(transcript: ImportedTranscript, tools: ToolDefinition[]): void {
  if (transcript.toolsKnown) return;
  for (const call of transcript.calls) call.request.tools = tools;
  transcript.toolsKnown = true;
}

/** Two files may hold the same run id (a resumed session, the same task run twice): suffix the later ones. */
export function makeIdsUnique(transcripts: ImportedTranscript[]): void {
  const seen = new Map<string, number>();
  for (const transcript of transcripts) {
    const count = (seen.get(transcript.id) ?? 0) + 1;
    seen.set(transcript.id, count);
    if (count > 1) transcript.id = `${transcript.id}#${count}`;
  }
}
