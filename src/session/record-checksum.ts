import { createHash } from "node:crypto";
import type { SessionRecord } from "./session-records.js";

/**
 * Per-record checksums (session format 4). A line edited into another valid value — a number
 * changed, a message's text rewritten, a stop reason swapped — still parses and validates; its
 * checksum no longer matches. The checksum belongs to the record, not to the file: any store that
 * keeps records (the JSONL file, a database row) seals and checks them the same way.
 *
 * `sum` is the first 16 hex digits of SHA-256 over the record's JSON without `sum`, written as the
 * record's last key. JSON.stringify of the parsed record gives back the same text (key order is
 * kept), so the check needs no canonical form of its own.
 */
export const recordChecksumKey = "sum";

/** Records of this format version and later carry a checksum. */
export const firstChecksumVersion = 4;

export type SealedRecord = SessionRecord & { [recordChecksumKey]: string };

export function sealRecord(record: SessionRecord): SealedRecord {
  return { ...record, [recordChecksumKey]: checksumOf(JSON.stringify(record)) };
}

export type RecordSealCheck =
  | { status: "intact" | "unsealed"; record: Record<string, unknown> }
  | { status: "edited"; record: Record<string, unknown>; expected: string; found: string };

/**
 * Takes the checksum off a parsed record and checks it. `unsealed`: the record carries none (older
 * formats, or the key was removed). The record is returned without the key either way.
 */
export function openRecordSeal(value: Record<string, unknown>): RecordSealCheck {
  if (!(recordChecksumKey in value)) return { status: "unsealed", record: value };
  const { [recordChecksumKey]: found, ...record } = value;
  const expected = checksumOf(JSON.stringify(record));
  if (found === expected) return { status: "intact", record };
  return { status: "edited", record, expected, found: String(found).slice(0, 40) };
}

function checksumOf(json: string): string {
  return createHash("sha256").update(json).digest("hex").slice(0, 16);
}
