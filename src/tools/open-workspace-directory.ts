import { constants, type Dirent, type Stats } from "node:fs";
import { lstat, open, readdir, readlink, realpath, stat, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "./tool.js";
import { isInside, resolveWorkspacePath, toWorkspaceRelative } from "./workspace-path.js";
import { describeNodeError, nodeErrorCode } from "../types/node-error-code.js";

const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * A directory of the workspace, opened and checked once; everything read from it goes through the
 * opened descriptor. On Linux the listing path is `/proc/self/fd/N`, which names the directory that
 * was opened whatever happens to its path afterwards, so another process swapping the folder for a
 * symbolic link to outside cannot make a listing show outside names. Children are opened through
 * the same anchor with O_NOFOLLOW.
 *
 * Where `/proc/self/fd` is missing, the listing path is the directory's real path, and each listing
 * is verified after reading (the directory's device and inode must still be the opened ones).
 */
export interface WorkspaceDirectory {
  /** The lexical absolute path (the names the model used). */
  readonly absolute: string;
  /** Workspace-relative, for messages. */
  readonly shown: string;
  /** The entries, unsorted; a race that moved the directory is a ToolError, never a raw ENOENT. */
  list(): Promise<Dirent[]>;
  /** A path for lstat/readlink/stat of one entry, anchored to the opened directory. */
  entryPath(name: string): string;
  /** Opens a subdirectory through this one; undefined when it is no longer a directory (a race). */
  openChild(name: string): Promise<WorkspaceDirectory | undefined>;
  close(): Promise<void>;
}

/**
 * Opens the directory the model named for listing. Returns undefined when the path is not a
 * directory (a file: the caller says what to use instead); throws a ToolError when it cannot be
 * opened or lies outside the workspace when it is opened.
 */
export async function openWorkspaceDirectory(workspace: string, requested: string, toolName: string): Promise<WorkspaceDirectory | undefined> {
  const absolute = await resolveWorkspacePath(workspace, requested, { mustExist: true });
  const shown = toWorkspaceRelative(workspace, absolute);
  const real = await realpath(absolute).catch((error: unknown) => {
    throw explainDirectoryError(error, shown, toolName);
  });
  let handle: FileHandle;
  try {
    handle = await open(real, directoryFlags);
  } catch (error) {
    if (nodeErrorCode(error) === "ENOTDIR" && (await isPlainNonDirectory(real))) return undefined;
    throw explainDirectoryError(error, shown, toolName);
  }
  try {
    const stats = await handle.stat();
    const anchored = await readlink(`/proc/self/fd/${handle.fd}`).then(
      (location) => ({ location, listingPath: `/proc/self/fd/${handle.fd}` }),
      () => undefined,
    );
    const location = anchored?.location ?? real;
    const workspaceReal = await realpath(path.resolve(workspace));
    if (!isInside(workspaceReal, location)) {
      throw new ToolError(
        "permission",
        `'${shown}' resolved to ${location}, outside the workspace, when ${toolName} opened it (a path component was ` +
          "changed to a symbolic link meanwhile); only directories inside the workspace can be listed.",
      );
    }
    return createDirectory(handle, stats, absolute, shown, anchored?.listingPath ?? real, anchored === undefined, toolName);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function createDirectory(
  handle: FileHandle,
  stats: Stats,
  absolute: string,
  shown: string,
  listingPath: string,
  verifyAfterListing: boolean,
  toolName: string,
): WorkspaceDirectory {
  return {
    absolute,
    shown,
    async list() {
      let entries: Dirent[];
      try {
        entries = await readdir(listingPath, { withFileTypes: true });
      } catch (error) {
        throw explainDirectoryError(error, shown, toolName);
      }
      if (verifyAfterListing) {
        const now = await stat(listingPath).catch(() => undefined);
        if (now === undefined || now.dev !== stats.dev || now.ino !== stats.ino) {
          throw new ToolError("permission", `'${shown}' was replaced while ${toolName} listed it; call it again.`);
        }
      }
      return entries;
    },
    entryPath(name) {
      return path.join(listingPath, name);
    },
    async openChild(name) {
      const childAbsolute = path.join(absolute, name);
      const childShown = shown === "." ? name : `${shown}/${name}`;
      let child: FileHandle;
      try {
        child = await open(path.join(listingPath, name), directoryFlags);
      } catch {
        // Gone, replaced by a link or a file since the listing: nothing to walk into.
        return undefined;
      }
      try {
        const childStats = await child.stat();
        const anchoredPath = verifyAfterListing ? path.join(listingPath, name) : `/proc/self/fd/${child.fd}`;
        return createDirectory(child, childStats, childAbsolute, childShown, anchoredPath, verifyAfterListing, toolName);
      } catch {
        await child.close();
        return undefined;
      }
    },
    close: () => handle.close(),
  };
}

function explainDirectoryError(error: unknown, shown: string, toolName: string): ToolError {
  if (error instanceof ToolError) return error;
  const code = describeNodeError(error);
  if (code === "ENOENT") return new ToolError("not_found", `'${shown}' disappeared while ${toolName} opened it (another process moved it); call it again.`);
  if (code === "ELOOP") return new ToolError("permission", `'${shown}' became a symbolic link while ${toolName} opened it; call it again.`);
  // O_NOFOLLOW | O_DIRECTORY meeting a link, or a folder on the path now a file: a race, not a file the model named.
  if (code === "ENOTDIR") {
    return new ToolError(
      "failed",
      `'${shown}' stopped being a folder while ${toolName} opened it (another process replaced it, or a folder above it, ` +
        "with a file or a symbolic link); call it again.",
    );
  }
  if (code === "EACCES" || code === "EPERM") return new ToolError("permission", `Cannot list '${shown}' (${code}).`);
  return new ToolError("failed", `Cannot list '${shown}' (${code}).`);
}

/**
 * Whether an open that said ENOTDIR met a file the model named (the caller says to read it instead),
 * rather than a link or a vanished parent folder put there since the path was checked.
 */
async function isPlainNonDirectory(real: string): Promise<boolean> {
  const stats = await lstat(real).catch(() => undefined);
  return stats !== undefined && !stats.isDirectory() && !stats.isSymbolicLink();
}

