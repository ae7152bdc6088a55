import type { Dirent } from "node:fs";
import path from "node:path";
import type { WorkspaceDirectory } from "../open-workspace-directory.js";
import { skippedDirectoryNames } from "./skipped-directories.js";

export interface WalkedEntry {
  /** The lexical absolute path (under the path the model named). */
  absolute: string;
  /** Relative to the directory the walk started from, with `/` separators. */
  relative: string;
  kind: "file" | "directory" | "symlink" | "other";
}

/**
 * Walks a directory tree depth-first, entries of each directory in name order, skipping
 * `skippedDirectoryNames`. Every directory is listed through an opened descriptor, and each
 * subdirectory is opened through its parent's (see openWorkspaceDirectory), so a folder swapped for
 * a link to outside mid-walk is not walked into. Symbolic links are yielded but never followed.
 * Directories that cannot be read, or vanish while walked, are skipped rather than failing the search.
 */
export async function* walkDirectory(directory: WorkspaceDirectory, relativePrefix = ""): AsyncGenerator<WalkedEntry> {
  let entries: Dirent[];
  try {
    entries = await directory.list();
  } catch {
    return;
  }
  entries.sort((left, right) => compareNames(left.name, right.name));
  for (const entry of entries) {
    const absolute = path.join(directory.absolute, entry.name);
    const relative = relativePrefix === "" ? entry.name : `${relativePrefix}/${entry.name}`;
    const kind = entryKind(entry);
    if (kind === "directory" && skippedDirectoryNames.has(entry.name)) continue;
    yield { absolute, relative, kind };
    if (kind !== "directory") continue;
    const child = await directory.openChild(entry.name);
    if (child === undefined) continue;
    try {
      yield* walkDirectory(child, relative);
    } finally {
      await child.close();
    }
  }
}

/** Code-point order, so listings are identical on every machine and locale. */
export function compareNames(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

function entryKind(entry: Dirent): WalkedEntry["kind"] {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isDirectory()) return "directory";
  if (entry.isFile()) return "file";
  return "other";
}
