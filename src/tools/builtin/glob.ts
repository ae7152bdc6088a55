import path from "node:path";
import { openWorkspaceDirectory, type WorkspaceDirectory } from "../open-workspace-directory.js";
import { defineTool, ToolError, type Tool } from "../tool.js";
import { resolveWorkspacePath, toWorkspaceRelative } from "../workspace-path.js";
import { globToRegExp } from "./glob-pattern.js";
import { joinShown, maximumScannedEntries, scanStoppedNote } from "./search-limits.js";
import { compareNames, walkDirectory } from "./walk-directory.js";
import { checkWorkspaceOption } from "./workspace-option.js";

export interface GlobArgs {
  pattern: string;
  path?: string;
}

export interface GlobToolOptions {
  workspace: string;
  /** Most paths returned (default 200). */
  maxResults?: number;
}

export function createGlobTool(options: GlobToolOptions): Tool<GlobArgs> {
  checkWorkspaceOption("createGlobTool", options);
  const maxResults = options.maxResults ?? 200;
  return defineTool<GlobArgs>({
    name: "glob",
    description:
      "Find files and directories by path pattern. `**` matches any number of directories, `*` and `?` match " +
      "within one name, `{ts,tsx}` matches alternatives, `[a-z]` a character class. The pattern is matched " +
      "against paths relative to `path` (default: the workspace root), so '*.ts' only matches files directly " +
      "in it and '**/*.ts' matches at any depth. node_modules, .git and .ctxkit are skipped. Results are " +
      `workspace-relative paths sorted by name (directories end with '/'), at most ${maxResults}. Use grep to ` +
      'search file contents instead. Example: {"pattern": "**/*.test.{ts,tsx}", "path": "src"}',
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "Glob pattern relative to path, e.g. \"**/*.ts\" or \"src/*/index.ts\"." },
        path: { type: "string", description: "Directory to search in, relative to the workspace (default \".\")." },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
    parallelSafe: true,
    source: "workspace",
    risk: "read",
    async execute(args) {
      const pattern = checkedPattern(args.pattern);
      const base = await openWorkspaceDirectory(options.workspace, args.path ?? ".", "glob");
      if (base === undefined) {
        const baseShown = toWorkspaceRelative(options.workspace, await resolveWorkspacePath(options.workspace, args.path ?? "."));
        throw new ToolError("invalid_arguments", `path '${baseShown}' is a file; glob needs a directory to search in.`);
      }
      try {
        return await globIn(base, pattern, args.pattern, maxResults);
      } finally {
        await base.close();
      }
    },
  });
}

function checkedPattern(requested: string): string {
  const pattern = requested.replace(/^(\.\/)+/, "");
  if (path.isAbsolute(pattern) || pattern.split("/").includes("..")) {
    throw new ToolError(
      "invalid_arguments",
      `Pattern '${requested}' must be relative to path and must not contain '..'; pass the directory ` +
        "to search as path instead.",
    );
  }
  return pattern;
}

/** Paths under an opened directory that the pattern selects (walked through descriptors). */
async function globIn(base: WorkspaceDirectory, pattern: string, requested: string, maxResults: number): Promise<string> {
  const baseShown = base.shown;
  const matcher = globToRegExp(pattern);
  const matches: string[] = [];
  let scanned = 0;
  for await (const entry of walkDirectory(base)) {
    scanned += 1;
    if (scanned > maximumScannedEntries) break;
    if (!matcher.test(entry.relative)) continue;
    matches.push(joinShown(baseShown, entry.relative) + (entry.kind === "directory" ? "/" : ""));
  }
  matches.sort(compareNames);
  const notes: string[] = [];
  if (matches.length > maxResults) {
    notes.push(`Showing the first ${maxResults} of ${matches.length} matches; use a narrower pattern or path.`);
  }
  if (scanned > maximumScannedEntries) notes.push(scanStoppedNote(maximumScannedEntries));
  if (matches.length === 0) return noMatchMessage(requested, baseShown, notes);
  return [matches.slice(0, maxResults).join("\n"), ...notes].join("\n\n");
}

function noMatchMessage(pattern: string, baseShown: string, notes: string[]): string {
  const hint =
    pattern.includes("/") || pattern.includes("**")
      ? ""
      : ` A pattern without '/' only matches names directly in '${baseShown}'; try '**/${pattern}' to search every subdirectory.`;
  return [`No paths match '${pattern}' in '${baseShown}'.${hint}`, ...notes].join("\n\n");
}
