import { TextDecoder } from "node:util";
import { CtxkitError, SessionError } from "../types/index.js";
import type { LoadedSession, SessionWarning } from "./loaded-session.js";
import { assembleSession, type SessionAssembly } from "./assemble-session.js";
import { READABLE_SESSION_VERSIONS, SESSION_FORMAT, SESSION_FORMAT_VERSION, type HeaderRecord } from "./session-records.js";
import { firstChecksumVersion, openRecordSeal, recordChecksumKey } from "./record-checksum.js";
import { validateSessionRecord } from "./validate-session-record.js";
import { isPlainObject } from "./validate-json-shape.js";
import { maximumSessionLineNesting, parseUntrustedJson } from "../providers/shared/parse-untrusted-json.js";

const NEWLINE = 0x0a;

export interface ParsedSessionFile {
  session: LoadedSession;
  /** Size of the file as read. */
  byteLength: number;
  /** Bytes up to and including the last intact record; a torn tail starts here. */
  intactByteLength: number;
  /** The last record is intact but has no newline: an appender must write one before its first record. */
  missingFinalNewline: boolean;
}

/**
 * Parses and validates a whole session file (pure: bytes in, session out). Every complete line must
 * be a valid record, or the load fails naming the line — a bad line in the middle means someone or
 * something damaged the file, and guessing would lose data. Only the last line gets leniency, because
 * a crash mid-write can cut it off; that is reported as a warning, never dropped silently.
 */
export function parseSessionFile(bytes: Uint8Array, filePath: string): ParsedSessionFile {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const warnings: SessionWarning[] = [];
  const lastNewline = bytes.lastIndexOf(NEWLINE);
  let assembly: SessionAssembly | undefined;
  let line = 0;

  let version = 0;
  // Set when a file whose header says format 1–3 carries checksums, which ctxkit writes only from
  // format 4 on: line 1 was edited down, which would otherwise turn every check off silently.
  let downgradeSeenAt: number | undefined;
  const addLine = (text: string): void => {
    const parsed = parseJson(text);
    if (!parsed.ok) throw corrupt(filePath, line, `not valid JSON (${parsed.error})`);
    const value = checkSeal(parsed.value, line);
    if (assembly === undefined) {
      const header = readHeader(value, filePath);
      version = header.version;
      if (version >= firstChecksumVersion) checkSeal(parsed.value, line, true);
      else if (isPlainObject(parsed.value) && recordChecksumKey in parsed.value) noteDowngrade(line);
      assembly = assembleSession(header);
      return;
    }
    const checked = validateSessionRecord(value);
    if (!checked.ok) throw corrupt(filePath, line, checked.reason);
    const problem = assembly.add(checked.record, line);
    if (problem) throw corrupt(filePath, line, problem);
  };

  // Takes a record's checksum off (format 4) and warns, naming the line, when it does not match.
  function checkSeal(value: unknown, at: number, header = false): unknown {
    if (!isPlainObject(value)) return value;
    const seal = openRecordSeal(value);
    if (version > 0 && version < firstChecksumVersion && seal.status !== "unsealed" && downgradeSeenAt === undefined) noteDowngrade(at);
    const sealed = header || version >= firstChecksumVersion || downgradeSeenAt !== undefined;
    if (sealed && seal.status === "edited") {
      warnings.push({ code: "record_edited", line: at, message: `Line ${at} of ${filePath} (a ${String(value.type)} record) does not match its checksum: the line was edited after ctxkit wrote it.` });
    } else if (sealed && !header && seal.status === "unsealed") {
      warnings.push({ code: "record_edited", line: at, message: `Line ${at} of ${filePath} (a ${String(value.type)} record) has no checksum, which every record of a format ${Math.max(version, firstChecksumVersion)} file has: the line was written or edited by something else.` });
    }
    return seal.record;
  }

  // Named once, on line 1 (the line that was edited); from here on every record's checksum is checked.
  function noteDowngrade(at: number): void {
    downgradeSeenAt = at;
    warnings.push({
      code: "record_edited",
      line: 1,
      message:
        `Line 1 of ${filePath} says session format ${version}, but ${at === 1 ? "it carries" : `line ${at} carries`} a checksum, which ctxkit writes only from format ${firstChecksumVersion} on: ` +
        `the header was edited (from format ${firstChecksumVersion} down, which turns the checksums off). The records' checksums were checked anyway.`,
    });
  }

  // Blank lines at the very end (an editor's final newline, an echo >>) carry nothing: ignored, and
  // left out of the intact length so an appender writes over them instead of after them.
  let recordsEnd = lastNewline;
  while (recordsEnd >= 0 && isBlankTail(bytes, recordsEnd)) recordsEnd = recordsEnd === 0 ? -1 : bytes.lastIndexOf(NEWLINE, recordsEnd - 1);

  // ctxkit writes neither a byte-order mark nor CR: their bytes mean the file was rewritten by an
  // editor or a tool (git's autocrlf). The decoder drops a BOM and JSON reads CR as white space, so
  // the records load as written; the file is still named as edited, never taken silently.
  const rewritten = { bomLine: undefined as number | undefined, crLine: undefined as number | undefined, crLines: 0 };
  const noteRewrite = (lineBytes: Uint8Array): void => {
    if (rewritten.bomLine === undefined && lineBytes[0] === 0xef && lineBytes[1] === 0xbb && lineBytes[2] === 0xbf) rewritten.bomLine = line;
    if (lineBytes[lineBytes.length - 1] === 0x0d) {
      rewritten.crLine ??= line;
      rewritten.crLines += 1;
    }
  };

  let start = 0;
  while (start <= recordsEnd) {
    const end = bytes.indexOf(NEWLINE, start);
    line += 1;
    noteRewrite(bytes.subarray(start, end));
    const text = decodeLine(decoder, bytes.subarray(start, end));
    if (text === undefined) throw corrupt(filePath, line, "not valid UTF-8");
    if (text.trim() === "") throw corrupt(filePath, line, "empty line");
    addLine(text);
    start = end + 1;
  }

  let intactByteLength = recordsEnd + 1;
  let missingFinalNewline = false;
  const tail = bytes.subarray(lastNewline + 1);
  if (tail.length > 0 && !isBlank(tail)) {
    line += 1;
    const text = decodeLine(decoder, tail);
    if (text !== undefined && parseJson(text).ok) {
      // A complete record whose newline was never written: keep it, and say so.
      addLine(text);
      intactByteLength = bytes.length;
      missingFinalNewline = true;
      warnings.push({
        code: "unterminated_last_line",
        line,
        message: `Line ${line} of ${filePath} is a complete record without its final newline; it was kept.`,
      });
    } else if (assembly === undefined) {
      throw corrupt(filePath, line, `the file holds only an incomplete first line (${tail.length} bytes): the session was never fully created`);
    } else {
      warnings.push({
        code: "torn_last_line",
        line,
        bytes: tail.length,
        message:
          `Line ${line} of ${filePath} was cut off mid-write (${tail.length} bytes, not valid JSON, no newline), ` +
          "most likely by a crash. Every earlier record is intact; opening the session to append removes the torn bytes.",
      });
    }
  }

  if (assembly === undefined) throw corrupt(filePath, 1, "the file is empty (no header line)");
  if (rewritten.bomLine !== undefined) {
    warnings.push({ code: "record_edited", line: rewritten.bomLine, message: `Line ${rewritten.bomLine} of ${filePath} starts with a byte-order mark, which ctxkit never writes: the file was edited or rewritten by another program. Its records were read without it.` });
  }
  if (rewritten.crLine !== undefined) {
    const count = rewritten.crLines === 1 ? "it" : `it and ${rewritten.crLines - 1} other line${rewritten.crLines === 2 ? "" : "s"}`;
    warnings.push({ code: "record_edited", line: rewritten.crLine, message: `Line ${rewritten.crLine} of ${filePath} ends with a carriage return (${count}), which ctxkit never writes: the file was edited or rewritten by another program (CRLF line endings, e.g. git's autocrlf). Its records were read as they are.` });
  }
  const result = assembly.finish(filePath, warnings);
  if (typeof result === "string") throw corrupt(filePath, line, result);
  return { session: result, byteLength: bytes.length, intactByteLength, missingFinalNewline };
}

/** Whether the line that ends at newline `end` holds only white space, and so does everything after it. */
function isBlankTail(bytes: Uint8Array, end: number): boolean {
  const previous = end === 0 ? -1 : bytes.lastIndexOf(NEWLINE, end - 1);
  return isBlank(bytes.subarray(previous + 1, end)) && isBlank(bytes.subarray(end + 1));
}

function isBlank(bytes: Uint8Array): boolean {
  return bytes.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === NEWLINE);
}

/** Line 1 decides whether this ctxkit can read the file at all, so it gets its own error codes. */
function readHeader(value: unknown, filePath: string): HeaderRecord {
  if (!isPlainObject(value) || value.type !== "header") {
    throw corrupt(filePath, 1, `expected the header record {"type":"header","format":"${SESSION_FORMAT}",…}`);
  }
  if (value.format !== SESSION_FORMAT) {
    throw new SessionError(
      "session_version_unsupported",
      `${filePath} is not a ctxkit session file (its header says format ${JSON.stringify(value.format)}, ` +
        `expected "${SESSION_FORMAT}"). Read other transcripts with importTranscript or inspectFiles (ctxkit/inspect; CLI: ctxkit inspect) instead of loading them as sessions.`,
    );
  }
  if (typeof value.version === "number" && Number.isInteger(value.version) && value.version > SESSION_FORMAT_VERSION) {
    throw new SessionError(
      "session_version_unsupported",
      `${filePath} uses session format version ${value.version}, but this ctxkit reads versions up to ` +
        `${SESSION_FORMAT_VERSION}. Upgrade ctxkit (npm install ctxkit@latest) to open it.`,
    );
  }
  const checked = validateSessionRecord(value);
  if (!checked.ok) throw corrupt(filePath, 1, checked.reason);
  if (!READABLE_SESSION_VERSIONS.includes(value.version as number)) {
    throw corrupt(filePath, 1, `version ${JSON.stringify(value.version)} is not a valid format version`);
  }
  return checked.record as HeaderRecord;
}

function corrupt(filePath: string, line: number, reason: string): CtxkitError {
  return new SessionError(
    "session_corrupt",
    `Session file ${filePath} is corrupt at line ${line}: ${reason}. The file was not modified; ` +
      "repair or remove that line (keep a copy) to load it.",
  );
}

function decodeLine(decoder: TextDecoder, bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: parseUntrustedJson(text, maximumSessionLineNesting) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
