import { join } from "node:path";
import { ConfigError } from "../types/index.js";
import { createNotes, type NotesPolicy } from "../tools/notes/index.js";
import type { ResolvedConfig } from "./resolve-config.js";

/** `--notes`: the session's data folder (default), the workspace's NOTES.md, or no notes tools. */
export type NotesLocation = "session" | "workspace" | "off";

export function parseNotesFlag(value: string | undefined): NotesLocation {
  if (value === undefined) return "session";
  if (value === "session" || value === "workspace" || value === "off") return value;
  throw new ConfigError("usage_invalid", `--notes must be session, workspace or off, got '${value}'.`);
}

/**
 * The notes policy for a command: `<data-dir>/notes/<session id>.md`, private to the session, or
 * `NOTES.md` in the workspace (shared with the person, so its tools are marked as workspace content).
 */
export function createNotesFromFlag(location: NotesLocation, config: ResolvedConfig, sessionId: () => string): NotesPolicy | undefined {
  if (location === "off") return undefined;
  if (location === "workspace") return createNotes({ path: join(config.workspace, "NOTES.md"), label: "NOTES.md in the workspace", source: "workspace" });
  return createNotes({ path: () => join(config.dataDir, "notes", `${sessionId()}.md`), label: "the session's notes file" });
}
