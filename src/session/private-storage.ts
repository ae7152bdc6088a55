import { mkdirSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Modes for everything ctxkit stores: transcripts, blobs, spills, notes and request logs hold what the
 * model read (`.env` files included), so only the owner may read them. `mkdir`'s mode applies to every
 * folder a recursive call creates; a umask can only narrow it further.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIRECTORY_MODE = 0o700;

/** Written into a data directory ctxkit creates, so `git add -A` in the workspace never commits transcripts. */
export const DATA_DIRECTORY_GITIGNORE = "# Written by ctxkit: transcripts and tool output stay out of git.\n*\n";

export async function makePrivateDirectory(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
}

export function makePrivateDirectorySync(directory: string): void {
  mkdirSync(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
}

/**
 * Creates the data directory (0700) and, when this call created it, its `.gitignore` (`*`). A folder
 * that already exists is left as the user keeps it: a `.gitignore` they removed is not put back.
 */
export async function prepareDataDirectory(directory: string): Promise<void> {
  const created = await mkdir(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  if (created === undefined) return;
  await writeFile(join(directory, ".gitignore"), DATA_DIRECTORY_GITIGNORE, { flag: "wx", mode: 0o644 }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  });
}

/** A private file written whole (sync), for stores that must not yield mid-write. */
export function writePrivateFileSync(path: string, content: string): void {
  writeFileSync(path, content, { encoding: "utf8", mode: PRIVATE_FILE_MODE });
}
