import { readFile } from "node:fs/promises";
import { type ToolDefinition, TranscriptError } from "../../types/index.js";
import { TRANSCRIPT_FORMATS, type ImportedTranscript, type ImportResult, type TranscriptFormat } from "../imported-transcript.js";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importTranscript } from "./import-transcript.js";
import { stripByteOrderMark } from "../../types/byte-order-mark.js";

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
 * Reads and imports transcript files. A file that cannot be read, or a record that does not fit its
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
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      result.problems.push({ file: path, reason: `cannot read the file (${(error as Error).message})` });
      continue;
    }
    text = stripByteOrderMark(text);
    if (text.trim() === "") {
      result.problems.push({ file: path, reason: "the file is empty" });
      continue;
    }
    const imported = importTranscript(text, path, format === "auto" ? detectTranscriptFormat(path, text) : format);
    result.transcripts.push(...imported.transcripts);
    result.problems.push(...imported.problems);
  }
  if (options.tools !== undefined) for (const transcript of result.transcripts) applyTools(transcript, options.tools);
  makeIdsUnique(result.transcripts);
  return result;
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
