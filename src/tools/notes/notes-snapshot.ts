import { open, readFile, rm } from "node:fs/promises";
import { ConfigError } from "../../types/index.js";
import { noteHarnessWrite } from "../../security/harness-writes.js";
import { writeNotesText } from "./notes-file.js";
import { provenancePath } from "./notes-provenance.js";
import { nodeErrorCode } from "../../types/node-error-code.js";

/** The notes file and its provenance file, whole (null: the file does not exist). JSON, for a durable step to record. */
export interface NotesSnapshot {
  notes: string | null;
  provenance: string | null;
}

/**
 * How a run that is executed again after a crash (a durable worker's) gets the notes it started
 * with. `startingNotes` returns the ones to start from: at a run's first execution what `current`
 * reads (the notes as they are now, recorded), at a later one what the first recorded, without
 * reading them (the notes a crash left may be larger than a record may hold). The notes are then put
 * back to that, and the notes tools, deterministic given the notes, rebuild the later state as they
 * run again: every request gets the notes line it got the first time.
 */
export interface NotesReplay {
  startingNotes(current: () => Promise<NotesSnapshot>): Promise<NotesSnapshot>;
  /**
   * Why `notes_write` may not write now, if so: a write made inside another recorded call (a fork
   * sub-agent's, inside its parent's `task` step) is not made again when that call's recorded result
   * is replayed, so the notes put back would lack it and later requests would differ.
   */
  writeRefusal?(): string | undefined;
}

/**
 * The notes as they are now. A snapshot is recorded whole (a durable step's row), so each file may
 * hold at most `maxBytes`: more than the notes tools ever write, only an edit outside ctxkit makes.
 */
export async function takeNotesSnapshot(notesPath: string, maxBytes: number): Promise<NotesSnapshot> {
  return { notes: await readWhole(notesPath, maxBytes), provenance: await readWhole(provenancePath(notesPath), maxBytes) };
}

/** Puts the notes back as `snapshot` has them; a file that already matches is left alone. */
export async function restoreNotesSnapshot(notesPath: string, snapshot: NotesSnapshot): Promise<void> {
  if ((await readWhole(notesPath)) !== snapshot.notes) await putBack(notesPath, snapshot.notes);
  const provenance = provenancePath(notesPath);
  if ((await readWhole(provenance)) !== snapshot.provenance) await putBack(provenance, snapshot.provenance);
}

async function readWhole(path: string, maxBytes = Number.POSITIVE_INFINITY): Promise<string | null> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if (nodeErrorCode(error) === "ENOENT") return null;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) {
      throw new ConfigError("option_invalid", `createNotes: ${path} holds ${size} bytes, more than the ${maxBytes} a run executed again after a crash records as the notes it started with (replay). Shorten the file, or start the run without notes.`);
    }
    return await readFile(handle, "utf8");
  } finally {
    await handle.close();
  }
}

async function putBack(path: string, text: string | null): Promise<void> {
  if (text === null) {
    await rm(path, { force: true });
    noteHarnessWrite({ path, removed: true });
    return;
  }
  // Another worker's host may not have the folder yet: the run's notes are rebuilt there.
  await writeNotesText(path, text);
}
