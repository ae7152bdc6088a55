import { join } from "node:path";
import type { NotesLocation } from "./config-values.js";
import { createNotes, type NotesPolicy, type NotesReplay } from "../tools/notes/index.js";
import type { AgentConfig } from "./agent-config.js";

/** `--notes`: the session's data folder (the default), the workspace's NOTES.md, or no notes tools. */
export type { NotesLocation };

/**
 * The notes policy for a command: `<data-dir>/notes/<session id>.md`, private to the session, or
 * `NOTES.md` in the workspace (shared with the person, so its tools are marked as workspace content).
 * `replay` (a durable worker's) applies to the session's own file only: the workspace's is the
 * person's too, and is not put back to what a run started with.
 */
export function createNotesFromConfig(location: NotesLocation, config: AgentConfig, sessionId: () => string, replay?: NotesReplay): NotesPolicy | undefined {
  if (location === "off") return undefined;
  if (location === "workspace") return createNotes({ path: join(config.workspace, "NOTES.md"), label: "NOTES.md in the workspace", source: "workspace" });
  return createNotes({ path: () => join(config.dataDir, "notes", `${sessionId()}.md`), label: "the session's notes file", ...(replay ? { replay } : {}) });
}
