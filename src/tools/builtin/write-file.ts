import { openWorkspaceFile, replaceContent } from "../open-workspace-file.js";
import { defineTool, type Tool } from "../tool.js";
import { checkWorkspaceOption } from "./workspace-option.js";

export interface WriteFileArgs {
  path: string;
  content: string;
}

export interface WriteFileToolOptions {
  workspace: string;
  /** Allow overwriting a file with several hard links (default false: another name may lie outside the workspace). */
  allowHardLinks?: boolean;
}

export function createWriteFileTool(options: WriteFileToolOptions): Tool<WriteFileArgs> {
  checkWorkspaceOption("createWriteFileTool", options);
  return defineTool<WriteFileArgs>({
    name: "write_file",
    description:
      "Create a file, or replace a file's whole content, in the workspace. Missing parent directories are " +
      "created. Use it for new files or complete rewrites; to change part of an existing file use edit_file, " +
      "which is safer and cheaper. The content is written exactly as given (UTF-8), so include the final " +
      "newline if the file should have one. Reports the bytes written and whether the file was created or " +
      'overwritten. Example: {"path": "src/greeting.ts", "content": "export const greeting = \\"hello\\";\\n"}',
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path relative to the workspace, e.g. \"src/new-module.ts\"." },
        content: { type: "string", description: "The complete new content of the file." },
      },
      required: ["path", "content"],
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
      const file = await openWorkspaceFile(options.workspace, args.path, {
        mode: "write",
        toolName: "write_file",
        allowHardLinks: options.allowHardLinks === true,
      });
      try {
        await replaceContent(file.handle, args.content);
      } finally {
        await file.handle.close();
      }
      const bytes = Buffer.byteLength(args.content, "utf8");
      return file.created
        ? `Created ${file.shown} (${bytes} bytes written).`
        : `Overwrote ${file.shown} (${bytes} bytes written; it had ${file.stats.size} bytes before).`;
    },
  });
}
