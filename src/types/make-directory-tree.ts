import { mkdirSync, statSync } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { nodeErrorCode } from "./node-error-code.js";

/**
 * `mkdir -p` that always ends. Node's `mkdir(path, { recursive: true })` spins at full CPU forever,
 * sync or async, when an existing folder refuses a child with ENOENT: procfs answers ENOENT for
 * `mkdir /proc/nope`, libuv reads that as "the parent is missing", makes the parent (EEXIST, taken
 * as done) and tries the child again. Here each missing folder is made once, top down from the
 * nearest one that exists, so the refusal is thrown as Node's own error (code, syscall, path).
 * Resolves to the first folder it created, as Node's does but always absolute (Node's keeps a
 * relative path relative), or undefined when the folder existed. Two differences from Node's, neither
 * seen by ctxkit's callers (their paths come from path.join): `..` is taken away from the path as
 * written (path.resolve), not after following a link before it; and a link to nowhere where a folder
 * should be is EEXIST from mkdir (it is in the way), where Node's says ENOENT.
 */
export async function makeDirectoryTree(directory: string, mode?: number): Promise<string | undefined> {
  const missing: string[] = [];
  for (let folder = resolve(directory); ; folder = dirname(folder)) {
    const found = await stat(folder).then(
      (stats) => stats,
      (error: unknown) => (isMissing(error) ? undefined : Promise.reject(error)),
    );
    if (found !== undefined) {
      // A file where the folder should be: Node's EEXIST (or ENOTDIR below it) from mkdir itself.
      if (!found.isDirectory()) await mkdir(missing.at(-1) ?? folder, { mode });
      break;
    }
    missing.push(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of [...missing].reverse()) {
    await mkdir(folder, { mode }).catch(async (error: unknown) => {
      // Made by another process meanwhile: what was asked for exists.
      if (!isTaken(error) || !(await stat(folder).catch(() => undefined))?.isDirectory()) throw error;
    });
  }
  return missing.at(-1);
}

/** The same for code that must not yield (a store written synchronously). */
export function makeDirectoryTreeSync(directory: string, mode?: number): string | undefined {
  const missing: string[] = [];
  for (let folder = resolve(directory); ; folder = dirname(folder)) {
    let found: ReturnType<typeof statSync> | undefined;
    try {
      found = statSync(folder);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    if (found !== undefined) {
      if (!found.isDirectory()) mkdirSync(missing.at(-1) ?? folder, { mode });
      break;
    }
    missing.push(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of [...missing].reverse()) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      if (!isTaken(error) || !isDirectorySync(folder)) throw error;
    }
  }
  return missing.at(-1);
}

/** Not there, or under a file (ENOTDIR): the walk goes up to what is there, and mkdir reports the error. */
function isMissing(error: unknown): boolean {
  const code = nodeErrorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

function isTaken(error: unknown): boolean {
  return nodeErrorCode(error) === "EEXIST";
}

function isDirectorySync(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
