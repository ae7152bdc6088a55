import { TextDecoder } from "node:util";
import { assembleSession } from "./assemble-session.js";
import type { HeaderRecord, SessionRecord } from "./session-records.js";
import { validateSessionRecord } from "./validate-session-record.js";
import { maximumSessionLineNesting, parseUntrustedJson } from "../providers/shared/parse-untrusted-json.js";

const NEWLINE = 0x0a;

export interface SessionReorder {
  /** 1-based line numbers in the order the repaired file holds them (the torn tail, if any, stays last). */
  order: number[];
  /** Lines that had to move later to follow what they refer to (a request after its messages, usage after its request…). */
  moved: number[];
  /** Lines no place in the file can accept (a request whose number is missing, a run_end without its run): left out. */
  removed: number[];
  /**
   * The request number no line holds, when that is why requests were left out: requests are numbered
   * 0, 1, 2, … in file order, so no later request (nor its usage) can follow the gap.
   */
  missingRequest?: number;
}

type Entry = { line: number; record: SessionRecord };

/** The key of a record nothing can come before (a second header, a request number already taken): it waits for good. */
const NEVER = "never";

/**
 * How to put a session file's records back in an order the loader accepts, when every line is a
 * valid record but some come before what they refer to (lines swapped or moved by hand, a sync tool,
 * a bad merge). Each record is taken in file order; one that cannot follow the records before it
 * waits, filed under what it needs, and is retried only when such a record has been placed, so a
 * large file is planned in about one pass. `undefined` when the file has other damage (a line that
 * is not a record) or nothing is out of order: there is nothing to reorder.
 */
export function planSessionReorder(bytes: Uint8Array): SessionReorder | undefined {
  const records = readRecords(bytes);
  if (records === undefined) return undefined;
  const [first, ...rest] = records;
  if (first?.record.type !== "header") return undefined;
  const header = first.record as HeaderRecord;
  const assembly = assembleSession(header);
  const order = [first.line];
  let requests = 0;
  let prefixes = 0;
  const waiting = new Map<string, Entry[]>();

  // What a waiting record needs placed before it: request N-1 (so N is next), its request, a prefix, more messages, its run_start.
  const need = (record: SessionRecord): string => {
    switch (record.type) {
      case "request":
        if (record.index < requests) return NEVER;
        if (record.index > requests) return `request:${record.index}`;
        return prefixes === 0 ? "prefix" : "messages";
      case "usage":
        return `usage:${record.request}`;
      case "context_edit":
        return header.version < 2 || record.start > record.end ? NEVER : "messages";
      case "run_end":
        return `run:${record.runId}`;
      default:
        return NEVER;
    }
  };

  const unlocks = (record: SessionRecord): string[] => {
    switch (record.type) {
      case "request":
        return [`usage:${record.index}`, `request:${record.index + 1}`];
      case "prefix":
        return ["prefix"];
      case "message":
      case "context_edit":
        return ["messages"];
      case "run_start":
        return [`run:${record.runId}`];
      default:
        return [];
    }
  };

  const place = (entry: Entry): boolean => {
    // Usage before its request would load as an orphan (and be dropped by a repair): let it wait instead.
    if (entry.record.type === "usage" && entry.record.request >= requests) return false;
    if (assembly.add(entry.record, entry.line) !== undefined) return false;
    if (entry.record.type === "request") requests += 1;
    if (entry.record.type === "prefix") prefixes += 1;
    order.push(entry.line);
    return true;
  };

  const wait = (entry: Entry): void => {
    const key = need(entry.record);
    const bucket = waiting.get(key);
    if (bucket === undefined) waiting.set(key, [entry]);
    else bucket.push(entry);
  };

  const placeOrWait = (entry: Entry): void => {
    if (!place(entry)) return wait(entry);
    // What was just placed may be what waiting records need: retry only those, and what they unlock in turn.
    const keys = unlocks(entry.record);
    while (keys.length > 0) {
      const key = keys.shift()!;
      const bucket = waiting.get(key);
      if (bucket === undefined) continue;
      waiting.delete(key);
      for (const waitingEntry of bucket) {
        if (place(waitingEntry)) keys.push(...unlocks(waitingEntry.record));
        else wait(waitingEntry);
      }
    }
  };

  for (const entry of rest) placeOrWait(entry);
  if (typeof assembly.finish("", []) === "string") return undefined;
  const left = [...waiting.values()].flat();
  const removed = left.map((entry) => entry.line).sort((lower, higher) => lower - higher);
  const moved = movedLines(order);
  if (removed.length === 0 && moved.length === 0) return undefined;
  // The loader cannot accept a gap in the request numbers, so it is reported as the cause rather than hidden.
  const leftRequests = left.flatMap((entry) => (entry.record.type === "request" ? [entry.record.index] : []));
  const gap = !leftRequests.includes(requests) && leftRequests.some((index) => index > requests);
  return { order, moved, removed, ...(gap ? { missingRequest: requests } : {}) };
}

/** Lines placed after a line that came later in the original file: the ones that waited. */
function movedLines(order: readonly number[]): number[] {
  const moved: number[] = [];
  let highest = 0;
  for (const line of order) {
    if (line < highest) moved.push(line);
    highest = Math.max(highest, line);
  }
  return moved.sort((left, right) => left - right);
}

/** Every complete line as a validated record, or `undefined` when one is not (that is not an order problem). */
function readRecords(bytes: Uint8Array): Array<{ line: number; record: SessionRecord }> | undefined {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const records: Array<{ line: number; record: SessionRecord }> = [];
  const lastNewline = bytes.lastIndexOf(NEWLINE);
  for (let start = 0, line = 1; start <= lastNewline; line += 1) {
    const end = bytes.indexOf(NEWLINE, start);
    let value: unknown;
    try {
      value = parseUntrustedJson(decoder.decode(bytes.subarray(start, end)), maximumSessionLineNesting);
    } catch {
      return undefined;
    }
    const checked = validateSessionRecord(value);
    if (!checked.ok) return undefined;
    records.push({ line, record: checked.record });
    start = end + 1;
  }
  return records;
}
