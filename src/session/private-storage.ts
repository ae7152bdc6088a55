import { writeFileSync } from "node:fs";
import { chmod, lstat, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeDirectoryTree, makeDirectoryTreeSync } from "../types/make-directory-tree.js";
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from "../types/private-file-modes.js";
import { nodeErrorCode } from "../types/node-error-code.js";

/** Written into a data directory ctxkit creates, so `git add -A` in the workspace never commits transcripts. */
export const DATA_DIRECTORY_GITIGNORE = "# Written by ctxkit: transcripts and tool output stay out of git.\n*\n";

export async function makePrivateDirectory(directory: string): Promise<void> {
  await makeDirectoryTree(directory, PRIVATE_DIRECTORY_MODE);
}

export function makePrivateDirectorySync(directory: string): void {
  makeDirectoryTreeSync(directory, PRIVATE_DIRECTORY_MODE);
}

/**
 * Creates the data directory (0700) with its `.gitignore` (`*`), and makes one that already exists
 * private too (issue 24): a `.ctxkit/` made by an older ctxkit, or by hand, was 0755 with no
 * `.gitignore`, so every existing user's transcripts were readable and `git add -A` committed them.
 * Its top-level folders (sessions, blobs, notes…) become 0700 as well. A `.gitignore` that exists is
 * left as it is: the user may have written their own.
 */
export async function prepareDataDirectory(directory: string): Promise<void> {
  const created = await makeDirectoryTree(directory, PRIVATE_DIRECTORY_MODE);
  if (created === undefined) await makeExistingDirectoryPrivate(directory);
  await writeFile(join(directory, ".gitignore"), DATA_DIRECTORY_GITIGNORE, { flag: "wx", mode: 0o644 }).catch((error: unknown) => {
    if (nodeErrorCode(error) !== "EEXIST") throw error;
  });
}

async function makeExistingDirectoryPrivate(directory: string): Promise<void> {
  await tighten(directory);
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  // Real folders only: a symlink's target is not ctxkit's to change.
  for (const entry of entries) if (entry.isDirectory()) await tighten(join(directory, entry.name));
}

async function tighten(directory: string): Promise<void> {
  const stats = await lstat(directory).catch(() => undefined);
  if (stats === undefined || !stats.isDirectory() || (stats.mode & 0o777 & ~PRIVATE_DIRECTORY_MODE) === 0) return;
  // A folder owned by someone else cannot be changed (EPERM); it stays as it is rather than failing the run.
  await chmod(directory, stats.mode & PRIVATE_DIRECTORY_MODE).catch(() => undefined);
}

/** A private file written whole (sync), for stores that must not yield mid-write. */
export function writePrivateFileSync(path: string, content: string): void {
  writeFileSync(path, content, { encoding: "utf8", mode: PRIVATE_FILE_MODE });
}
