import type { ImportProblem } from "../imported-transcript.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

/**
 * Splits JSONL into parsed records. A line that is not JSON becomes a problem and the rest are
 * still read: transcripts of other agents are evidence, and one bad line must not hide the run.
 * A last line without its newline that fails to parse was most likely cut off mid-write.
 */
export function readJsonLines(text: string, file: string): { records: JsonLine[]; problems: ImportProblem[] } {
  const records: JsonLine[] = [];
  const problems: ImportProblem[] = [];
  const lines = text.split("\n");
  for (const [index, raw] of lines.entries()) {
    const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (content.trim() === "") continue;
    const line = index + 1;
    try {
      records.push({ line, value: parseUntrustedJson(content) });
    } catch (error) {
      const isLast = index === lines.length - 1;
      const detail = error instanceof Error ? error.message : String(error);
      problems.push({
        file,
        line,
        reason: isLast
          ? `truncated line: not valid JSON and no final newline (${detail}); the file was probably cut off mid-write`
          : `not valid JSON (${detail})`,
      });
    }
  }
  return { records, problems };
}

/**
 * Whether `text` opens as a JSONL stream: its first line is a JSON object. A whole JSON document
 * that failed to parse (a run cut off mid-write) opens with a lone `[` or `{`, or is one long line
 * that fails again; reading it line by line would parse each of its lines to report each, which for
 * a 50 MB pretty-printed file costs half a minute and most of a gigabyte, for nothing.
 */
export function opensAsJsonLines(text: string): boolean {
  const start = text.trimStart();
  const end = start.indexOf("\n");
  try {
    const first: unknown = parseUntrustedJson(end === -1 ? start : start.slice(0, end));
    return typeof first === "object" && first !== null && !Array.isArray(first);
  } catch {
    return false;
  }
}
