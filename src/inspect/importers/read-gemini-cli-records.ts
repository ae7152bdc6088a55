import type { ImportProblem } from "../imported-transcript.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";
import { isRecord, optionalString, type JsonObject } from "./json-guards.js";
import { opensAsJsonLines, readJsonLines } from "./read-json-lines.js";

export interface GeminiCliRecords {
  sessionId: string | undefined;
  /** The conversation as Gemini CLI would load it, in order. */
  messages: JsonObject[];
  problems: ImportProblem[];
}

/**
 * Reads a Gemini CLI chat recording into its final message list. Two layouts exist:
 * - `session-*.json` (before the JSONL migration, gemini-cli PR #23749): one object `{sessionId, messages}`.
 * - `session-*.jsonl`: a metadata line, then records replayed in order. A record with an `id` is a
 *   message (a later copy of an id replaces the earlier one in place: Gemini rewrites a reply as its
 *   tool calls and tokens arrive); `$rewindTo` drops the messages from that id on (all of them when
 *   the id is unknown); `$set` merges metadata, and a `$set.messages` array is the whole history
 *   rewritten (the opening `<session_context>`, or the history after masking or compression), so it
 *   replaces the messages read so far and later records continue from it.
 * Returns undefined when the text is neither.
 */
export function readGeminiCliRecords(text: string, file: string): GeminiCliRecords | undefined {
  const start = text.trimStart();
  try {
    const whole = parseUntrustedJson(start);
    if (isRecord(whole) && Array.isArray(whole.messages)) return { sessionId: optionalString(whole.sessionId), messages: whole.messages.filter(isRecord), problems: [] };
  } catch {
    // not one JSON value: the JSONL layout (parsing stops at the end of its first line)
  }
  if (!opensAsJsonLines(start)) return undefined;
  const { records, problems } = readJsonLines(text, file);
  let byId = new Map<string, JsonObject>();
  let sessionId: string | undefined;
  for (const { line, value } of records) {
    if (!isRecord(value)) {
      problems.push({ file, line, reason: "expected a Gemini CLI record (an object)" });
    } else if (typeof value.$rewindTo === "string") {
      const ids = [...byId.keys()];
      const from = ids.indexOf(value.$rewindTo);
      for (const removed of from === -1 ? ids : ids.slice(from)) byId.delete(removed);
    } else if (typeof value.id === "string") {
      byId.set(value.id, value);
    } else if (isRecord(value.$set)) {
      if (Array.isArray(value.$set.messages)) byId = new Map(value.$set.messages.filter(isRecord).map((message, index) => [optionalString(message.id) ?? `$set.${line}.${index}`, message]));
      sessionId = optionalString(value.$set.sessionId) ?? sessionId;
    } else if (typeof value.sessionId === "string") {
      sessionId ??= value.sessionId;
    } else {
      problems.push({ file, line, reason: "expected a Gemini CLI record: a message {id, type, …}, {$set: …}, {$rewindTo: id} or the {sessionId, projectHash} header" });
    }
  }
  if (sessionId === undefined && byId.size === 0) return undefined;
  return { sessionId, messages: [...byId.values()], problems };
}
