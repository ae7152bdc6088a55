import { readFile } from "node:fs/promises";
import { SessionError } from "../types/index.js";
import { nodeErrorCode } from "../types/node-error-code.js";
import { parseSessionFile, type ParsedSessionFile } from "./parse-session-file.js";

/** Reads and validates one session file; a missing file is `session_not_found`, naming where it looked. */
export async function readSessionFile(filePath: string): Promise<ParsedSessionFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(filePath);
  } catch (error) {
    if (isNodeError(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) {
      throw new SessionError(
        "session_not_found",
        `No session file at ${filePath}. Check the id and the session directory (list() shows the sessions it holds).`,
        { cause: error },
      );
    }
    // Node's EISDIR from a read names no path ("illegal operation on a directory, read"): say which, and what to do.
    if (isNodeError(error) && error.code === "EISDIR") {
      throw new SessionError("session_corrupt", `${filePath} is a folder, not a session file. Move it out of the sessions folder to use this id.`, { cause: error });
    }
    throw error;
  }
  return parseSessionFile(bytes, filePath);
}

/** An error Node threw with its code (ENOENT…); never one of ctxkit's own, which have codes too. */
export function isNodeError(value: unknown): value is NodeJS.ErrnoException {
  return value instanceof Error && nodeErrorCode(value) !== undefined;
}
