import { noteHarnessWrite } from "../../security/harness-writes.js";
import { open, readFile, rename, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from "../../types/private-file-modes.js";
import { makeDirectoryTree } from "../../types/make-directory-tree.js";
import { nodeErrorCode } from "../../types/node-error-code.js";

/** The notes on disk: read and written whole, with their size known between calls. */
export interface NotesFile {
  readonly path: string;
  /** Characters in the file when it was last read, written or measured (0 when it does not exist). */
  readonly characters: number;
  /** Bytes in the file when the last read found it over `maxBytes`: that read returned its start only. Undefined otherwise. */
  readonly cutFrom: number | undefined;
  read(): Promise<string>;
  write(text: string): Promise<void>;
  /** Re-reads the size (the person may edit the file between calls). */
  refresh(): Promise<void>;
}

/**
 * A notes file at `path` (resolved when first used: a new session's id, and so its file, is known
 * only after it starts). A file edited outside ctxkit can be any size, so reads stop at
 * `maxBytes`; writes go through a temporary file and a rename, so a crash never leaves half notes.
 */
export function createNotesFile(path: string | (() => string), maxBytes: number): NotesFile {
  const resolvePath = typeof path === "function" ? path : () => path;
  let characters = 0;
  let cutFrom: number | undefined;
  const file: NotesFile = {
    get path() {
      return resolvePath();
    },
    get characters() {
      return characters;
    },
    get cutFrom() {
      return cutFrom;
    },
    async read() {
      const { text, size } = await readBounded(resolvePath(), maxBytes);
      characters = text.length;
      cutFrom = size > maxBytes ? size : undefined;
      return text;
    },
    async write(text) {
      await writeNotesText(resolvePath(), text);
      characters = text.length;
      cutFrom = undefined;
    },
    async refresh() {
      try {
        const info = await stat(resolvePath());
        // Bytes over-count multi-byte text a little; the exact count comes with the next read.
        characters = info.size > maxBytes ? maxBytes : info.size === 0 ? 0 : (await readBounded(resolvePath(), maxBytes)).text.length;
      } catch {
        characters = 0;
      }
    },
  };
  return file;
}

/**
 * Writes notes text (the notes or their provenance) whole, private to the user: through a temporary
 * file and a rename, so a crash never leaves half of it, into a folder made if missing.
 */
export async function writeNotesText(path: string, text: string): Promise<void> {
  await makeDirectoryTree(dirname(path), PRIVATE_DIRECTORY_MODE);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text, { encoding: "utf8", mode: PRIVATE_FILE_MODE });
  await rename(temporary, path);
  noteHarnessWrite({ path, content: Buffer.from(text, "utf8") });
}

async function readBounded(path: string, maxBytes: number): Promise<{ text: string; size: number }> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if (nodeErrorCode(error) === "ENOENT") return { text: "", size: 0 };
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size <= maxBytes) return { text: await readFile(handle, "utf8"), size };
    const buffer = Buffer.alloc(maxBytes);
    await handle.read(buffer, 0, maxBytes, 0);
    // Cut at the last complete line, so a multi-byte character is never split.
    const text = buffer.toString("utf8");
    return { text: text.slice(0, Math.max(0, text.lastIndexOf("\n"))), size };
  } finally {
    await handle.close();
  }
}
