import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { isCtxkitError } from "../types/index.js";
import { isNodeError, readSessionFile } from "./load-session.js";
import { isValidSessionId } from "./session-id.js";
import { summarizeSession, type SessionSummary } from "./session-summary.js";

/**
 * Summarises every `<id><extension>` file in `directory`, oldest id first. A file that cannot be
 * loaded is listed with its error: one damaged session must not hide the others.
 */
export async function listSessions(directory: string, extension: string): Promise<SessionSummary[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if (isNodeError(error) && error.code === "ENOENT") return [];
    throw error;
  }
  const ids = names
    .filter((name) => name.endsWith(extension))
    .map((name) => name.slice(0, -extension.length))
    .filter(isValidSessionId)
    .sort();
  const summaries: SessionSummary[] = [];
  // One file at a time: a directory of thousands of sessions must not exhaust file descriptors.
  for (const id of ids) summaries.push(await summarizeFile(id, join(directory, `${id}${extension}`)));
  return summaries;
}

async function summarizeFile(id: string, filePath: string): Promise<SessionSummary> {
  let updatedAt = "";
  try {
    updatedAt = (await stat(filePath)).mtime.toISOString();
    return summarizeSession(id, (await readSessionFile(filePath)).session, updatedAt);
  } catch (error) {
    const code = isCtxkitError(error) ? error.code : isNodeError(error) ? (error.code ?? "unknown") : "unknown";
    const message = error instanceof Error ? error.message : String(error);
    return { id, path: filePath, updatedAt, error: { code, message } };
  }
}
