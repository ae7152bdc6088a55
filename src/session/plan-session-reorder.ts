import { TextDecoder } from "node:util";
import { assembleSession } from "./assemble-session.js";
import type { HeaderRecord, SessionRecord } from "./session-records.js";
import { validateSessionRecord } from "./validate-session-record.js";
import { parseUntrustedJson } from "../providers/shared/parse-untrusted-json.js";

const NEWLINE = 0x0a;

export interface SessionReorder {
  /** 1-based line numbers in the order the repaired file holds them (the torn tail, if any, stays last). */
  order: number[];
  /** Lines that had to move later to follow what they refer to (a request after its messages, usage after its request…). */
  moved: number[];
  /** Lines no place in the file can accept (a request whose number is missing, a run_end without its run): left out. */
  removed: number[];
}

/**
 * How to put a session file's records back in an order the loader accepts, when every line is a
 * valid record but some come before what they refer to (lines swapped or moved by hand, a sync tool,
 * a bad merge). Each record is taken in file order; one that cannot follow the records before it
 * waits, and is placed as soon as what it needs has been placed. `undefined` when the file has other
 * damage (a line that is not a record) or nothing is out of order: there is nothing to reorder.
 */
export function planSessionReorder(bytes: Uint8Array): SessionReorder | undefined {
  const records = readRecords(bytes);
  if (records === undefined) return undefined;
  const [first, ...rest] = records;
  if (first?.record.type !== "header") return undefined;
  const assembly = assembleSession(first.record as HeaderRecord);
  const order = [first.line];
  let requests = 0;
  let waiting: Array<{ line: number; record: SessionRecord }> = [];

  const place = (entry: { line: number; record: SessionRecord }): boolean => {
    // Usage before its request would load as an orphan (and be dropped by a repair): let it wait instead.
    if (entry.record.type === "usage" && entry.record.request >= requests) return false;
    if (assembly.add(entry.record, entry.line) !== undefined) return false;
    if (entry.record.type === "request") requests += 1;
    order.push(entry.line);
    return true;
  };

  for (const entry of rest) {
    if (!place(entry)) {
      waiting.push(entry);
      continue;
    }
    // Each placed record may be what a waiting one needed; repeat until none moves.
    for (let placedOne = true; placedOne && waiting.length > 0; ) {
      const before = waiting.length;
      waiting = waiting.filter((waitingEntry) => !place(waitingEntry));
      placedOne = waiting.length < before;
    }
  }
  if (typeof assembly.finish("", []) === "string") return undefined;
  const removed = waiting.map((entry) => entry.line);
  const moved = movedLines(order);
  if (removed.length === 0 && moved.length === 0) return undefined;
  return { order, moved, removed };
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
      value = parseUntrustedJson(decoder.decode(bytes.subarray(start, end)));
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
