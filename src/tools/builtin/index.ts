import type { Tool } from "../tool.js";
import { createBashTool } from "./bash.js";
import { createEditFileTool } from "./edit-file.js";
import { createGlobTool } from "./glob.js";
import { createGrepTool } from "./grep.js";
import { createListDirTool } from "./list-dir.js";
import { createReadFileTool } from "./read-file.js";
import { createWriteFileTool } from "./write-file.js";
import { checkWorkspaceOption } from "./workspace-option.js";

export { createBashTool, type BashArgs, type BashToolOptions } from "./bash.js";
export { createEditFileTool, type EditFileArgs, type EditFileToolOptions } from "./edit-file.js";
export { createGlobTool, type GlobArgs, type GlobToolOptions } from "./glob.js";
export { createGrepTool, type GrepArgs, type GrepToolOptions } from "./grep.js";
export { createListDirTool, type ListDirArgs, type ListDirToolOptions } from "./list-dir.js";
export { createReadFileTool, type ReadFileArgs, type ReadFileToolOptions } from "./read-file.js";
export { createWriteFileTool, type WriteFileArgs, type WriteFileToolOptions } from "./write-file.js";
export { globToRegExp } from "./glob-pattern.js";
export { createWebFetchTool, type WebFetchArgs, type WebFetchToolOptions } from "./web-fetch/web-fetch-tool.js";

/** Every built-in tool name; `bash` is only created when enabled. */
export const builtinToolNames = ["read_file", "write_file", "edit_file", "list_dir", "glob", "grep", "bash"] as const;

export type BuiltinToolName = (typeof builtinToolNames)[number];

export interface WorkspaceToolsOptions {
  /** Directory every path is confined to. */
  workspace: string;
  /** Include the `bash` tool (default false: a shell can reach outside the workspace). */
  enableBash?: boolean;
  /** Default timeout of a bash command (default 120 s). */
  bashTimeoutMs?: number;
  /** Bash output kept per call (default 30 KB). */
  bashMaxOutputBytes?: number;
  /** Where bash streams the whole output of a command over its budget (see BashToolOptions.spillDirectory). */
  bashSpillDirectory?: string;
  /** read_file's output cap per call (default 50 KB). */
  readMaxOutputBytes?: number;
  /** grep's default max_results (default 100). */
  grepMaxResults?: number;
  /** glob's result cap (default 200). */
  globMaxResults?: number;
  /** list_dir's entry cap (default 500). */
  listMaxEntries?: number;
}

/** The workspace tools, in `builtinToolNames` order. */
export function createWorkspaceTools(options: WorkspaceToolsOptions): Tool[] {
  checkWorkspaceOption("createWorkspaceTools", options);
  const { workspace } = options;
  const tools: Tool<never>[] = [
    createReadFileTool({ workspace, maxOutputBytes: options.readMaxOutputBytes }),
    createWriteFileTool({ workspace }),
    createEditFileTool({ workspace }),
    createListDirTool({ workspace, maxEntries: options.listMaxEntries }),
    createGlobTool({ workspace, maxResults: options.globMaxResults }),
    createGrepTool({ workspace, maxResults: options.grepMaxResults }),
  ];
  if (options.enableBash === true) {
    tools.push(createBashTool({ workspace, timeoutMs: options.bashTimeoutMs, maxOutputBytes: options.bashMaxOutputBytes, spillDirectory: options.bashSpillDirectory }));
  }
  // Each tool's arguments are validated against its JSON Schema by the runner before `execute`,
  // which is what makes the specific argument types safe to erase here.
  return tools as unknown as Tool[];
}
