import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { skippedDirectoryNames } from "./skipped-directories.js";

export interface WalkedEntry {
  absolute: string;
  /** Relative to the directory the walk started from, with `/` separators. */
  relative: string;
  kind: "file" | "directory" | "symlink" | "other";
}

/**
 * Walks a directory tree depth-first, entries of each directory in name order, skipping
 * `skippedDirectoryNames`. Symbolic links are yielded but never followed: following them could loop
 * or leave the workspace. Directories that cannot be read are skipped rather than failing the search.
 */
export async function* walkDirectory(root: string, relativePrefix = ""): AsyncGenerator<WalkedEntry> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((left, right) => compareNames(left.name, right.name));
  for (const entry of entries) {
    const absolute = path.join(root, entry.name);
    const relative = relativePrefix === "" ? entry.name : `${relativePrefix}/${entry.name}`;
    const kind = entryKind(entry);
    if (kind === "directory" && skippedDirectoryNames.has(entry.name)) continue;
    yield { absolute, relative, kind };
    if (kind === "directory") yield* walkDirectory(absolute, relative);
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
