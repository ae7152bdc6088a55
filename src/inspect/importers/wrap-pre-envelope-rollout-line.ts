import { isRecord } from "./json-guards.js";

/**
 * Codex CLI rollouts written before the `{timestamp, type, payload}` envelope (mid 2025, up to
 * about 0.3x): line 1 is a bare header `{id, timestamp, instructions, git?}`, `{"record_type":
 * "state"}` lines mark saved state, and response items stand at the top level without a payload or
 * a timestamp of their own. Returns the line in today's envelope, undefined for a state marker (a
 * value no JSON line parses to, unlike a sentinel string), or the line unchanged when it already has
 * one (or is not a rollout line at all).
 */
export function wrapPreEnvelopeRolloutLine(value: unknown, isFirst: boolean): unknown {
  if (!isRecord(value) || isRecord(value.payload)) return value;
  if (typeof value.record_type === "string") return undefined;
  if (isFirst && typeof value.id === "string" && value.type === undefined) return { timestamp: value.timestamp, type: "session_meta", payload: value };
  if (typeof value.type === "string") return { timestamp: value.timestamp, type: "response_item", payload: value };
  return value;
}
