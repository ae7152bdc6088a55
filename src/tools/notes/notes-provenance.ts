import { noteHarnessWrite } from "../../security/harness-writes.js";
import { readFile, rm, writeFile } from "node:fs/promises";
import { unionOfSources } from "../../context/external-content/message-provenance.js";
import { PRIVATE_FILE_MODE } from "../../types/private-file-modes.js";
import type { Message, UntrustedSource } from "../../types/index.js";

/**
 * What the notes were written from, kept beside them (`<notes>.provenance.json`): a note written while
 * untrusted content was in the context is as untrusted as that content, in this run and the next, so
 * `notes_read` hands it back as external (tagged, and it taints the context again). Issue 24: no path
 * makes tainted text clean.
 */
export async function readNotesProvenance(notesPath: string): Promise<UntrustedSource[]> {
  try {
    const parsed = JSON.parse(await readFile(provenancePath(notesPath), "utf8")) as { untrusted?: unknown };
    return Array.isArray(parsed.untrusted) ? (parsed.untrusted as UntrustedSource[]) : [];
  } catch {
    return [];
  }
}

/** Records the sources of a write: added to what the notes held (append), or in place of it (replace). */
export async function recordNotesProvenance(notesPath: string, messages: readonly Message[], mode: "append" | "replace"): Promise<UntrustedSource[]> {
  const fresh = unionOfSources(messages);
  const kept = mode === "append" ? await readNotesProvenance(notesPath) : [];
  const union = new Map<string, UntrustedSource>();
  for (const source of [...kept, ...fresh]) union.set(`${source.trust}\u0000${source.source}`, source);
  const untrusted = [...union.values()];
  const path = provenancePath(notesPath);
  if (untrusted.length === 0) {
    await rm(path, { force: true });
    noteHarnessWrite({ path, removed: true });
  } else {
    const text = `${JSON.stringify({ untrusted })}\n`;
    await writeFile(path, text, { encoding: "utf8", mode: PRIVATE_FILE_MODE });
    noteHarnessWrite({ path, content: Buffer.from(text, "utf8") });
  }
  return untrusted;
}

/** Where the provenance of the notes at `notesPath` is kept. */
export function provenancePath(notesPath: string): string {
  return `${notesPath}.provenance.json`;
}
