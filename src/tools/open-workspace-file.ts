import { constants, type Stats } from "node:fs";
import { open, readlink, realpath, stat, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "./tool.js";
import { isInside, resolveWorkspacePath, toWorkspaceRelative } from "./workspace-path.js";
import { makeDirectoryTree } from "../types/make-directory-tree.js";
import { describeNodeError } from "../types/node-error-code.js";

export interface OpenWorkspaceFileOptions {
  /**
   * `read`: an existing file, read-only. `update`: an existing file, read-write. `write`: an existing
   * file or a new one (parents created), read-write. Nothing is truncated here.
   */
  mode: "read" | "update" | "write";
  /** Which tool asks, for messages ("read_file"). */
  toolName: string;
  /** Allow writing a file that has other hard links (which may lie outside the workspace). */
  allowHardLinks?: boolean;
}

export interface OpenedWorkspaceFile {
  handle: FileHandle;
  /** Of the opened descriptor, so what was checked is what is used. */
  stats: Stats;
  /** The lexical absolute path; the name the model used. */
  absolute: string;
  /** Workspace-relative, for messages. */
  shown: string;
  /** Whether `write` mode created the file. */
  created: boolean;
}

// O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer forever (and keeps the process
// alive after Ctrl-C). It has no effect on regular files, the only kind used after the check below.
const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const writeFlags = constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Opens a file the model named, without a gap between checking the path and using it: the path is
 * resolved and confined (resolveWorkspacePath), opened with O_NOFOLLOW, and then the *opened
 * descriptor* is checked — it must be a regular file, and on Linux its real path
 * (`/proc/self/fd/N`) must lie inside the workspace. Another process swapping a directory for a
 * symbolic link between the check and the open is caught by the second check, and every read or
 * write goes through the descriptor that passed it.
 *
 * Where `/proc/self/fd` is missing (macOS, Windows) the fallback compares the descriptor's device
 * and inode with those of the re-resolved real path; it narrows the race window but cannot close it.
 */
export async function openWorkspaceFile(workspace: string, requested: string, options: OpenWorkspaceFileOptions): Promise<OpenedWorkspaceFile> {
  const absolute = await resolveWorkspacePath(workspace, requested, { mustExist: options.mode !== "write" });
  const shown = toWorkspaceRelative(workspace, absolute);
  const { handle, created } = await openDescriptor(absolute, shown, options);
  try {
    const stats = await handle.stat();
    refuseNonRegular(stats, shown, options.toolName);
    const realLocation = await descriptorRealPath(handle, absolute, stats);
    const workspaceReal = await realpath(path.resolve(workspace));
    if (!isInside(workspaceReal, realLocation)) {
      // A file this call created outside (the race won at the create) is removed again; it is empty.
      if (created) await unlink(realLocation).catch(() => undefined);
      throw new ToolError(
        "permission",
        `'${shown}' resolved to ${realLocation}, outside the workspace, when it was opened (a path component ` +
          "was changed to a symbolic link meanwhile); only files inside the workspace can be used.",
      );
    }
    if (options.mode !== "read" && stats.nlink > 1 && options.allowHardLinks !== true) {
      throw new ToolError(
        "permission",
        `'${shown}' has ${stats.nlink} hard links; writing it would change every other name of the file too, ` +
          "and those may lie outside the workspace. Ask the user to replace it with a plain copy, or to allow " +
          "writing hard-linked files.",
      );
    }
    return { handle, stats, absolute, shown, created };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Opens the *real* path (links expanded when it was checked) with O_NOFOLLOW, so a link the model may
 * use (inside the workspace) still works while a link swapped in since makes the open fail or the
 * descriptor check catch it.
 */
async function openDescriptor(absolute: string, shown: string, options: OpenWorkspaceFileOptions): Promise<{ handle: FileHandle; created: boolean }> {
  const existing = await realpath(absolute).catch(() => undefined);
  if (options.mode === "read" || options.mode === "update" || existing !== undefined) {
    const flags = options.mode === "read" ? readFlags : writeFlags;
    return { handle: await openOrExplain(existing ?? absolute, flags, shown, options.toolName), created: false };
  }
  await makeDirectoryTree(path.dirname(absolute)).catch((error: unknown) => {
    // A parent that is a file (EEXIST, ENOTDIR): the model's path runs through a file, not a folder.
    const code = describeNodeError(error);
    if (code === "EEXIST" || code === "ENOTDIR") throw new ToolError("invalid_arguments", `'${shown}' goes through a file as if it were a folder; check the path (list_dir shows what is there).`);
    throw explainOpenError(error, shown, options.toolName);
  });
  // The folder can be renamed or swapped between creating and resolving it (another process).
  const folder = await realpath(path.dirname(absolute)).catch((error: unknown) => {
    throw explainOpenError(error, shown, options.toolName);
  });
  const target = path.join(folder, path.basename(absolute));
  // O_EXCL: if a file (or a link) appeared at the name since, fail rather than follow or clobber it.
  const handle = await openOrExplain(target, writeFlags | constants.O_CREAT | constants.O_EXCL, shown, options.toolName);
  return { handle, created: true };
}

async function openOrExplain(absolute: string, flags: number, shown: string, toolName: string): Promise<FileHandle> {
  try {
    return await open(absolute, flags, 0o666);
  } catch (error) {
    throw explainOpenError(error, shown, toolName);
  }
}

function explainOpenError(error: unknown, shown: string, toolName: string): ToolError {
  const code = describeNodeError(error);
  if (code === "ELOOP") {
    return new ToolError("permission", `'${shown}' became a symbolic link while ${toolName} opened it; call it again.`);
  }
  if (code === "EISDIR") return directoryError(shown, toolName);
  if (code === "ENXIO") return nonRegularError(shown, "a socket or a FIFO without a reader", toolName);
  if (code === "EACCES" || code === "EPERM") return new ToolError("permission", `Cannot open '${shown}' (${code}).`);
  if (code === "ENOENT") return new ToolError("not_found", `'${shown}' disappeared while ${toolName} opened it.`);
  if (code === "EEXIST") return new ToolError("failed", `'${shown}' appeared while ${toolName} created it; call it again.`);
  return new ToolError("failed", `Cannot open '${shown}' (${code}).`);
}

function refuseNonRegular(stats: Stats, shown: string, toolName: string): void {
  if (stats.isFile()) return;
  if (stats.isDirectory()) throw directoryError(shown, toolName);
  const kind = stats.isFIFO() ? "a FIFO (named pipe)" : stats.isSocket() ? "a socket" : stats.isCharacterDevice() ? "a character device" : stats.isBlockDevice() ? "a block device" : "not a regular file";
  throw nonRegularError(shown, kind, toolName);
}

function directoryError(shown: string, toolName: string): ToolError {
  return new ToolError(
    "invalid_arguments",
    `'${shown}' is a directory, not a file; ${toolName} needs a file path (call list_dir with path '${shown}' to see its contents).`,
  );
}

function nonRegularError(shown: string, kind: string, toolName: string): ToolError {
  // Reading a FIFO or a device never ends by itself; only regular files are safe to open.
  return new ToolError("invalid_arguments", `'${shown}' is ${kind}; ${toolName} only works on regular files.`);
}

/** Replaces the whole content of an opened file through its descriptor. */
export async function replaceContent(handle: FileHandle, content: string): Promise<void> {
  const bytes = Buffer.from(content, "utf8");
  await handle.truncate(0);
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written);
    written += bytesWritten;
  }
}

/** Where the descriptor really points (see the fallback described above). */
async function descriptorRealPath(handle: FileHandle, absolute: string, stats: Stats): Promise<string> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    const resolved = await realpath(absolute);
    const current = await stat(resolved);
    if (current.dev !== stats.dev || current.ino !== stats.ino) {
      throw new ToolError("permission", `'${absolute}' changed while it was opened; call the tool again.`);
    }
    return resolved;
  }
}

