import { statSync } from "node:fs";
import { CtxkitError } from "../types/index.js";

/**
 * Refuses a workspace that is not an existing folder, so a mistyped --workspace is named as such
 * instead of looking like a workspace with no sessions or skills.
 */
export function requireWorkspaceDirectory(workspace: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(workspace).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) {
    throw new CtxkitError("option_invalid", `The workspace ${workspace} does not exist or is not a folder. Create it first, or pass --workspace <existing folder>.`);
  }
}
