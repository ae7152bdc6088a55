import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { defineTool, ToolError, type Tool } from "../tool.js";
import { resolveWorkspacePath, toWorkspaceRelative } from "../workspace-path.js";

export interface WriteFileArgs {
  path: string;
  content: string;
}

export interface WriteFileToolOptions {
  workspace: string;
}

export function createWriteFileTool(options: WriteFileToolOptions): Tool<WriteFileArgs> {
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
    async execute(args) {
      const absolute = await resolveWorkspacePath(options.workspace, args.path);
      const shown = toWorkspaceRelative(options.workspace, absolute);
      const previousSize = await existingFileSize(absolute, shown);
      await mkdir(path.dirname(absolute), { recursive: true });
      await writeFile(absolute, args.content, "utf8");
      const bytes = Buffer.byteLength(args.content, "utf8");
      return previousSize === undefined
        ? `Created ${shown} (${bytes} bytes written).`
        : `Overwrote ${shown} (${bytes} bytes written; it had ${previousSize} bytes before).`;
    },
  });
}

async function existingFileSize(absolute: string, shown: string): Promise<number | undefined> {
  let stats;
  try {
    stats = await stat(absolute);
  } catch {
    return undefined;
  }
  if (stats.isDirectory()) {
    throw new ToolError(
      "invalid_arguments",
      `'${shown}' is a directory; write_file needs a file path such as '${shown}/new-file.txt'.`,
    );
  }
  return stats.size;
}
