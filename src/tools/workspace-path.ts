import { lstat, readlink, realpath } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "./tool.js";
import { describeNodeError } from "../types/node-error-code.js";

export interface ResolveWorkspacePathOptions {
  /** Throw a `not_found` ToolError when nothing exists at the path. */
  mustExist?: boolean;
}

/** Longest chain of dangling symbolic links followed before giving up (the kernel's own limit is 40). */
const maximumLinkHops = 40;

/**
 * Resolves a path the model asked for to an absolute path inside the workspace, or throws a
 * `permission` ToolError. Relative paths are taken from the workspace; absolute paths are allowed when
 * they point inside it. Symbolic links are followed at every component — including a final one that
 * dangles, and the nearest existing parent of a file that does not exist yet — so neither reading
 * through a link nor creating a file through one can reach outside the workspace's real path.
 *
 * The returned path is the lexical one (links not expanded), so messages show the names the model used.
 */
export async function resolveWorkspacePath(
  workspace: string,
  requested: string,
  options: ResolveWorkspacePathOptions = {},
): Promise<string> {
  const workspaceRoot = path.resolve(workspace);
  const workspaceRealRoot = await realWorkspaceRoot(workspaceRoot);
  const absolute = path.resolve(workspaceRoot, requested);
  // An absolute path may name the workspace by its real path (e.g. /private/tmp vs /tmp on macOS).
  if (!isInside(workspaceRoot, absolute) && !isInside(workspaceRealRoot, absolute)) {
    throw new ToolError(
      "permission",
      `Path '${requested}' is outside the workspace ${workspaceRoot}; use a path relative to the workspace.`,
    );
  }
  const { realPath, exists } = await realPathAllowingMissing(absolute, 0);
  if (!isInside(workspaceRealRoot, realPath)) {
    throw new ToolError(
      "permission",
      `Path '${requested}' goes through a symbolic link to ${realPath}, which is outside the workspace ` +
        `${workspaceRoot}; only files inside the workspace can be used.`,
    );
  }
  if (options.mustExist === true && !exists) {
    throw await notFoundError(workspaceRoot, absolute, requested);
  }
  return absolute;
}

/** The path relative to the workspace with `/` separators, as tools show it to the model ("." for the root). */
export function toWorkspaceRelative(workspace: string, absolute: string): string {
  const relative = path.relative(path.resolve(workspace), absolute);
  return relative === "" ? "." : relative.split(path.sep).join("/");
}

/** Whether `child` is `parent` or lies below it (both absolute and normalised). */
export function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

async function realWorkspaceRoot(workspaceRoot: string): Promise<string> {
  try {
    return await realpath(workspaceRoot);
  } catch (error) {
    throw new ToolError(
      "not_found",
      `The workspace directory ${workspaceRoot} does not exist (${describeNodeError(error)}); create it or start with another workspace.`,
    );
  }
}

/**
 * Where the path really lands: `fs.realpath` when it exists; otherwise the real path of the nearest
 * existing ancestor with the missing names appended, following dangling links by hand (a write to a
 * dangling link creates the link's target).
 */
async function realPathAllowingMissing(absolute: string, hops: number): Promise<{ realPath: string; exists: boolean }> {
  try {
    return { realPath: await realpath(absolute), exists: true };
  } catch (error) {
    const code = describeNodeError(error);
    if (code !== "ENOENT" && code !== "ENOTDIR") throw accessError(absolute, code);
  }
  const linkTarget = await danglingLinkTarget(absolute);
  if (linkTarget !== undefined) {
    if (hops >= maximumLinkHops) throw accessError(absolute, "ELOOP");
    // A relative target is taken from the link's real directory, as the kernel does; the lexical
    // directory may itself be reached through another link and differ from it.
    const linkDirectory = await realPathAllowingMissing(path.dirname(absolute), hops + 1);
    const followed = await realPathAllowingMissing(path.resolve(linkDirectory.realPath, linkTarget), hops + 1);
    return { realPath: followed.realPath, exists: false };
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return { realPath: absolute, exists: false };
  const parentReal = await realPathAllowingMissing(parent, hops);
  return { realPath: path.join(parentReal.realPath, path.basename(absolute)), exists: false };
}

async function danglingLinkTarget(absolute: string): Promise<string | undefined> {
  try {
    const stats = await lstat(absolute);
    return stats.isSymbolicLink() ? await readlink(absolute) : undefined;
  } catch {
    return undefined;
  }
}

async function notFoundError(workspaceRoot: string, absolute: string, requested: string): Promise<ToolError> {
  let parent = path.dirname(absolute);
  while (isInside(workspaceRoot, parent) && parent !== workspaceRoot && !(await pathExists(parent))) {
    parent = path.dirname(parent);
  }
  const parentShown = isInside(workspaceRoot, parent) ? toWorkspaceRelative(workspaceRoot, parent) : ".";
  return new ToolError(
    "not_found",
    `'${requested}' does not exist in the workspace. Call list_dir with path '${parentShown}' to see what is ` +
      "there, or glob to search by name; paths are relative to the workspace root.",
  );
}

async function pathExists(absolute: string): Promise<boolean> {
  try {
    await lstat(absolute);
    return true;
  } catch {
    return false;
  }
}

function accessError(absolute: string, code: string): ToolError {
  const kind = code === "EACCES" || code === "EPERM" ? "permission" : "failed";
  return new ToolError(kind, `Cannot resolve ${absolute} (${code}).`);
}

