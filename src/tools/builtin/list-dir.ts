import type { Dirent } from "node:fs";
import { lstat, readlink } from "node:fs/promises";
import { openWorkspaceDirectory, type WorkspaceDirectory } from "../open-workspace-directory.js";
import { defineTool, ToolError, type Tool } from "../tool.js";
import { resolveWorkspacePath, toWorkspaceRelative } from "../workspace-path.js";
import { formatByteSize } from "./file-content.js";
import { compareNames } from "./walk-directory.js";
import { checkWorkspaceOption } from "./workspace-option.js";

export interface ListDirArgs {
  path?: string;
}

export interface ListDirToolOptions {
  workspace: string;
  /** Most entries shown (default 500). */
  maxEntries?: number;
}

export function createListDirTool(options: ListDirToolOptions): Tool<ListDirArgs> {
  checkWorkspaceOption("createListDirTool", options);
  const maxEntries = options.maxEntries ?? 500;
  return defineTool<ListDirArgs>({
    name: "list_dir",
    description:
      "List the entries of one directory in the workspace (not recursive), sorted by name: directories end " +
      "with '/', files show their size, symbolic links show their target. Use it to get oriented or to check " +
      `a path before reading it; to find files by name across the tree use glob instead. At most ${maxEntries} ` +
      'entries are shown. Example: {"path": "src/tools"}',
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "Directory relative to the workspace (default \".\", the workspace root)." },
      },
      required: [],
      additionalProperties: false,
    },
    parallelSafe: true,
    source: "workspace",
    risk: "read",
    async execute(args) {
      // Listed through the opened directory (see openWorkspaceDirectory): a folder swapped for a link
      // to outside between the check and the listing cannot show outside names.
      const directory = await openWorkspaceDirectory(options.workspace, args.path ?? ".", "list_dir");
      if (directory === undefined) {
        const shownFile = toWorkspaceRelative(options.workspace, await resolveWorkspacePath(options.workspace, args.path ?? "."));
        throw new ToolError("invalid_arguments", `'${shownFile}' is a file, not a directory; use read_file to read it.`);
      }
      try {
        return await listOpenedDirectory(directory, maxEntries);
      } finally {
        await directory.close();
      }
    },
  });
}

async function listOpenedDirectory(directory: WorkspaceDirectory, maxEntries: number): Promise<string> {
  const shown = directory.shown;
  const entries = (await directory.list()).sort((left, right) => compareNames(left.name, right.name));
  const directoryName = shown === "." ? ". (the workspace root)" : `${shown}/`;
  if (entries.length === 0) return `Directory ${directoryName} is empty.`;
  const lines = await Promise.all(entries.slice(0, maxEntries).map((entry) => describeEntry(directory, entry)));
  const header = `Directory ${directoryName}, ${entries.length} ${entries.length === 1 ? "entry" : "entries"}:`;
  const note =
    entries.length > maxEntries
      ? `\n\nShowing the first ${maxEntries} of ${entries.length} entries; use glob with a pattern ` +
        `such as "${shown === "." ? "" : `${shown}/`}*.ts" to find specific files.`
      : "";
  return `${header}\n${lines.join("\n")}${note}`;
}

async function describeEntry(directory: WorkspaceDirectory, entry: Dirent): Promise<string> {
  const absolute = directory.entryPath(entry.name);
  if (entry.isSymbolicLink()) {
    const target = await readlink(absolute).catch(() => "?");
    return `${entry.name} -> ${target}`;
  }
  if (entry.isDirectory()) return `${entry.name}/`;
  if (!entry.isFile()) return entry.name;
  // lstat: the entry was a file when listed; if a link replaced it since, its target is not measured.
  const size = await lstat(absolute).then(
    (stats) => formatByteSize(stats.size),
    () => "size unknown",
  );
  return `${entry.name}  (${size})`;
}
