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
  const log = createMessageLog();
  let sessionId: string | undefined;
  for (const { line, value } of records) {
    if (!isRecord(value)) {
      problems.push({ file, line, reason: "expected a Gemini CLI record (an object)" });
    } else if (typeof value.$rewindTo === "string") {
      log.rewindTo(value.$rewindTo);
    } else if (typeof value.id === "string") {
      log.set(value.id, value);
    } else if (isRecord(value.$set)) {
      if (Array.isArray(value.$set.messages)) {
        log.clear();
        for (const [index, message] of value.$set.messages.filter(isRecord).entries()) log.set(optionalString(message.id) ?? `$set.${line}.${index}`, message);
      }
      sessionId = optionalString(value.$set.sessionId) ?? sessionId;
    } else if (typeof value.sessionId === "string") {
      sessionId ??= value.sessionId;
    } else {
      problems.push({ file, line, reason: "expected a Gemini CLI record: a message {id, type, …}, {$set: …}, {$rewindTo: id} or the {sessionId, projectHash} header" });
    }
  }
  const messages = log.messages();
  if (sessionId === undefined && messages.length === 0) return undefined;
  return { sessionId, messages, problems };
}

/**
 * Messages by id in the order first seen. A rewind drops an id and every later one in time
 * proportional to what it drops (it copied every id before: a 2 MB file of 20,000 rewinds took 34 s).
 * Dropped ids stay in `byId`, stale: deleting and re-adding one key of a large Map costs V8 a rehash
 * every few operations (20,000 such pairs took 0.4 s), so an entry is live only while `order` still
 * holds its id at its position.
 */
function createMessageLog() {
  const order: string[] = [];
  const byId = new Map<string, { message: JsonObject; at: number }>();
  const liveEntry = (id: string) => {
    const entry = byId.get(id);
    return entry !== undefined && order[entry.at] === id ? entry : undefined;
  };
  return {
    set(id: string, message: JsonObject): void {
      const entry = liveEntry(id);
      if (entry !== undefined) entry.message = message;
      else {
        byId.set(id, { message, at: order.length });
        order.push(id);
      }
    },
    /** Drops `id` and the messages after it; all of them when the id is unknown. */
    rewindTo(id: string): void {
      order.length = liveEntry(id)?.at ?? 0;
    },
    clear(): void {
      order.length = 0;
      byId.clear();
    },
    messages: (): JsonObject[] => order.map((id) => byId.get(id)!.message),
  };
}
