import type { FileHandle } from "node:fs/promises";
import { openWorkspaceFile } from "../open-workspace-file.js";
import { defineTool, ToolError, type Tool } from "../tool.js";
import { formatByteSize, isBinaryFile } from "./file-content.js";
import { readLineWindow, type CountBudget } from "./read-line-window.js";
import { checkWorkspaceOption } from "./workspace-option.js";

export interface ReadFileArgs {
  path: string;
  /** 1-based line to start from. */
  offset?: number;
  /** How many lines to show. */
  limit?: number;
}

export interface ReadFileToolOptions {
  workspace: string;
  /** Most lines shown per call, and the default `limit` (default 2000). */
  maxLines?: number;
  /** Longer lines are cut with a marker (default 2000). */
  maxLineCharacters?: number;
  /** Most bytes of output per call (default 50 KB). */
  maxOutputBytes?: number;
  /**
   * How long lines are counted after the window is read, and, separately, how far lines before `offset`
   * are stepped over (default for each: 1 GB, or 1 s once 64 MB are read).
   */
  countBudget?: CountBudget;
}

export function createReadFileTool(options: ReadFileToolOptions): Tool<ReadFileArgs> {
  checkWorkspaceOption("createReadFileTool", options);
  const maxLines = options.maxLines ?? 2000;
  const maxLineCharacters = options.maxLineCharacters ?? 2000;
  const maxOutputBytes = options.maxOutputBytes ?? 50 * 1024;
  return defineTool<ReadFileArgs>({
    name: "read_file",
    description:
      "Read a text file in the workspace. Lines come numbered like `cat -n` (right-aligned number, a tab, " +
      "then the text); the numbers are not part of the file, so leave them out when you copy text into " +
      `edit_file. One call shows at most ${maxLines} lines or ${formatByteSize(maxOutputBytes)}, and lines ` +
      `longer than ${maxLineCharacters} characters are cut; when more remains, the result ends with a note ` +
      "saying which offset to continue from. For a large file, grep for what you need first and read only " +
      "that region with offset and limit. Binary files are refused. Paths are relative to the workspace. " +
      'Example: {"path": "src/server.ts", "offset": 120, "limit": 80}',
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path relative to the workspace, e.g. \"src/index.ts\"." },
        offset: { type: "integer", minimum: 1, description: "1-based line number to start reading at (default 1)." },
        limit: {
          type: "integer",
          minimum: 1,
          description: `Number of lines to read (default and maximum ${maxLines}).`,
        },
      },
      required: ["path"],
      additionalProperties: false,
    },
    parallelSafe: true,
    source: "workspace",
    risk: "read",
    async execute(args) {
      const file = await openWorkspaceFile(options.workspace, args.path, { mode: "read", toolName: "read_file" });
      try {
        return await readWindow(file.handle, file.shown, args);
      } finally {
        await file.handle.close();
      }
    },
  });

  async function readWindow(handle: FileHandle, shown: string, args: ReadFileArgs): Promise<string> {
    if (await isBinaryFile(handle)) {
      // Not "invalid_arguments": the path is right, and that kind's advice (fix the arguments against
      // the parameters) sent models back to resend the same call.
      throw new ToolError("failed", `'${shown}' is a binary file (it contains NUL bytes); read_file only shows text files. Do not read it again with read_file.`);
    }
    const offset = Math.max(1, Math.floor(args.offset ?? 1));
    const limit = Math.min(maxLines, Math.max(1, Math.floor(args.limit ?? maxLines)));
    const window = await readLineWindow(handle, { offset, limit, maxLineCharacters, maxOutputBytes, countBudget: options.countBudget });
    if (window.offsetUnreached !== undefined) return offsetUnreachedNote(shown, offset, limit, window.totalLines, window.offsetUnreached);
    if (window.totalLines === 0) return `File ${shown} is empty (0 lines).`;
    if (offset > window.totalLines) {
      throw new ToolError(
        "invalid_arguments",
        `offset ${offset} is past the end of ${shown}, which has ${window.totalLines} lines.`,
      );
    }
    const lastShown = offset + window.lines.length - 1;
    if (window.countComplete && lastShown >= window.totalLines) return window.lines.join("\n");
    const capNote = window.cutByBytes ? ` (output is capped at ${formatByteSize(maxOutputBytes)} per call)` : "";
    // A count cut short by its budget is a lower bound, said as one rather than passed off as the total.
    const total = window.countComplete ? `${window.totalLines} lines` : `at least ${window.totalLines} lines (counting stopped there, the file is large)`;
    return (
      `${window.lines.join("\n")}\n\nFile has ${total}; showing ${offset}-${lastShown}${capNote}. ` +
      `Call read_file with offset=${lastShown + 1} to continue.`
    );
  }
}

/** No window from a far offset the budget did not reach: where the reading stopped, and how to get there instead. */
function offsetUnreachedNote(shown: string, offset: number, limit: number, linesAtLeast: number, reached: { bytesRead: number; fileBytes: number }): string {
  const quoted = `'${shown.replaceAll("'", "'\\''")}'`;
  return (
    `Line ${offset} of ${shown} was not reached, so no lines are shown: read_file stepped over the first ${linesAtLeast - 1} lines ` +
    `(${formatByteSize(reached.bytesRead)} of ${formatByteSize(reached.fileBytes)}) within what one call may read, and line ${offset} is further on. ` +
    `Find the lines you need with grep (it gives their line numbers), or, if you can run shell commands, read them with ` +
    `\`tail -n +${offset} ${quoted} | head -n ${limit}\`.`
  );
}
