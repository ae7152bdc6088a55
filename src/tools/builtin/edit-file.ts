import type { FileHandle } from "node:fs/promises";
import { openWorkspaceFile, replaceContent } from "../open-workspace-file.js";
import { defineTool, ToolError, type Tool } from "../tool.js";
import { formatByteSize, looksBinary } from "./file-content.js";
import { formatLineRanges, lineNumberAt } from "./line-numbers.js";
import { checkWorkspaceOption } from "./workspace-option.js";

export interface EditFileArgs {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export interface EditFileToolOptions {
  workspace: string;
  /** Larger files are refused (default 16 MB): an edit holds the file, and its new version, in memory. */
  maxFileBytes?: number;
  /** Allow editing a file with several hard links (default false: another name may lie outside the workspace). */
  allowHardLinks?: boolean;
}

export function createEditFileTool(options: EditFileToolOptions): Tool<EditFileArgs> {
  checkWorkspaceOption("createEditFileTool", options);
  const maxFileBytes = options.maxFileBytes ?? 16 * 1024 * 1024;
  return defineTool<EditFileArgs>({
    name: "edit_file",
    description:
      "Replace an exact piece of text in an existing file. old_string must match the file byte for byte, " +
      "including indentation and line breaks, and must occur exactly once unless replace_all is true; add " +
      "a few surrounding lines to make it unique. Read the file first and copy the text without read_file's " +
      "line-number prefixes. To delete text, pass an empty new_string; to create a file or rewrite it " +
      "completely, use write_file. Reports the changed line numbers. " +
      'Example: {"path": "src/config.ts", "old_string": "  retries: 3,\\n", "new_string": "  retries: 5,\\n"}',
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path relative to the workspace." },
        old_string: { type: "string", description: "The exact text to replace (must be non-empty)." },
        new_string: { type: "string", description: "The text to put in its place (may be empty to delete)." },
        replace_all: {
          type: "boolean",
          description: "Replace every occurrence instead of requiring exactly one (default false).",
        },
      },
      required: ["path", "old_string", "new_string"],
      additionalProperties: false,
    },
    parallelSafe: false,
    requiresConfirmation: true,
    // Its result is ctxkit's own sentence about the change (the path it was given, counts, line
    // numbers), never text read from the file: not workspace data, so source tags leave it alone.
    // Its errors are ctxkit's own too. A tool that echoed the file back would be `workspace`.
    source: "trusted",
    risk: "write",
    async execute(args) {
      if (args.old_string === "") {
        throw new ToolError("invalid_arguments", "old_string is empty; to create or rewrite a file use write_file.");
      }
      if (args.old_string === args.new_string) {
        throw new ToolError("invalid_arguments", "old_string and new_string are identical; there is nothing to change.");
      }
      const file = await openWorkspaceFile(options.workspace, args.path, {
        mode: "update",
        toolName: "edit_file",
        allowHardLinks: options.allowHardLinks === true,
      });
      try {
        return await editOpenFile(file.handle, file.shown, file.stats.size, args);
      } finally {
        await file.handle.close();
      }
    },
  });

  async function editOpenFile(handle: FileHandle, shown: string, size: number, args: EditFileArgs): Promise<string> {
    if (size > maxFileBytes) {
      throw new ToolError(
        "invalid_arguments",
        `'${shown}' is ${formatByteSize(size)}; edit_file changes files up to ${formatByteSize(maxFileBytes)}. Read the ` +
          "part you need with read_file (offset and limit) and change it with a command such as sed through bash, " +
          "or split the file.",
      );
    }
    const bytes = await handle.readFile();
    if (looksBinary(bytes)) {
      // "failed", not "invalid_arguments": the path is right; no other arguments would make it editable.
      throw new ToolError("failed", `'${shown}' is a binary file; edit_file only changes text files. Do not try to edit it with edit_file.`);
    }
    const content = bytes.toString("utf8");
    const { oldText, newText, positions } = locate(content, args.old_string, args.new_string);
    if (positions.length === 0) {
      throw new ToolError(
        "not_found",
        `old_string not found in ${shown}. Read the file first and copy the exact text, including whitespace.` +
          lineNumberPrefixHint(args.old_string),
      );
    }
    if (positions.length > 1 && args.replace_all !== true) {
      const lines = formatLineRanges(positions.map((position) => lineNumberAt(content, position)));
      throw new ToolError(
        "invalid_arguments",
        `old_string occurs ${positions.length} times in ${shown} (lines ${lines}); add surrounding lines to ` +
          "make it unique or set replace_all.",
      );
    }
    const { updated, changedLines } = replaceAt(content, positions, oldText, newText);
    await replaceContent(handle, updated);
    const count = positions.length === 1 ? "1 occurrence" : `${positions.length} occurrences`;
    const lineWord = changedLines.length === 1 ? "line" : "lines";
    return `Edited ${shown}: replaced ${count}; changed ${lineWord} ${formatLineRanges(changedLines)}.`;
  }
}

interface Located {
  oldText: string;
  newText: string;
  positions: number[];
}

/**
 * Finds every non-overlapping occurrence. Models write `\n` even when the file uses CRLF line ends;
 * when only the CRLF form matches, both strings are converted so the file keeps its line ends.
 */
function locate(content: string, oldText: string, newText: string): Located {
  const positions = occurrences(content, oldText);
  if (positions.length > 0 || !content.includes("\r\n") || oldText.includes("\r") || !oldText.includes("\n")) {
    return { oldText, newText, positions };
  }
  const crlfOld = oldText.replace(/\n/g, "\r\n");
  return { oldText: crlfOld, newText: newText.replace(/\r?\n/g, "\r\n"), positions: occurrences(content, crlfOld) };
}

function occurrences(content: string, needle: string): number[] {
  const positions: number[] = [];
  let from = content.indexOf(needle);
  while (from !== -1) {
    positions.push(from);
    from = content.indexOf(needle, from + needle.length);
  }
  return positions;
}

/** Replaces at the given positions and returns the 1-based lines the new text occupies in the result. */
function replaceAt(
  content: string,
  positions: number[],
  oldText: string,
  newText: string,
): { updated: string; changedLines: number[] } {
  const pieces: string[] = [];
  const changedLines: number[] = [];
  let consumed = 0;
  let line = 1;
  for (const position of positions) {
    const before = content.slice(consumed, position);
    pieces.push(before, newText);
    line += countNewlines(before);
    const lastCharacterLines = newText.length === 0 ? 0 : countNewlines(newText.slice(0, -1));
    for (let offset = 0; offset <= lastCharacterLines; offset += 1) changedLines.push(line + offset);
    line += countNewlines(newText);
    consumed = position + oldText.length;
  }
  pieces.push(content.slice(consumed));
  return { updated: pieces.join(""), changedLines };
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}

function lineNumberPrefixHint(oldText: string): string {
  return /^ *\d+\t/m.test(oldText)
    ? " old_string seems to start with read_file's line-number prefix (spaces, a number, a tab); leave it out."
    : "";
}
