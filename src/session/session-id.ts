import { randomBytes } from "node:crypto";
import { ConfigError, SessionError } from "../types/index.js";

/**
 * Ids become file names, so they are restricted to characters that are safe everywhere and can
 * never climb out of the session directory ("../x", "/etc/passwd", "a\\b").
 */
const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isValidSessionId(id: string): boolean {
  return SESSION_ID_PATTERN.test(id);
}

export function assertValidSessionId(id: string): void {
  if (!isValidSessionId(id)) {
    throw new SessionError(
      "session_id_invalid",
      `Invalid session id ${JSON.stringify(id)}: use 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit.`,
    );
  }
}

/**
 * A new session id like `20261130-041502-a1b2c3`: the UTC creation time first, so ids sort by
 * age as plain strings (and as file names), then random hex so two sessions in one second differ.
 */
export function createSessionId(createdAt: string, randomHex: string = randomBytes(3).toString("hex")): string {
  const time = new Date(createdAt);
  if (Number.isNaN(time.getTime())) {
    throw new ConfigError("option_invalid", `createdAt ${JSON.stringify(createdAt)} is not an ISO-8601 time.`);
  }
  const stamp = time.toISOString(); // 2026-11-30T04:15:02.123Z
  const date = stamp.slice(0, 10).replaceAll("-", "");
  const clock = stamp.slice(11, 19).replaceAll(":", "");
  return `${date}-${clock}-${randomHex}`;
}
