import path from "node:path";
import { defineTool, ToolError, type Tool } from "../tool.js";
import { openWorkspaceFile } from "../open-workspace-file.js";
import { openWorkspaceDirectory, type WorkspaceDirectory } from "../open-workspace-directory.js";
import { resolveWorkspacePath, toWorkspaceRelative } from "../workspace-path.js";
import { formatByteSize, looksBinary } from "./file-content.js";
import { globToRegExp, isNameOnlyGlob } from "./glob-pattern.js";
import { RegexWorker } from "./regex-worker.js";
import { joinShown, maximumScannedEntries, scanStoppedNote } from "./search-limits.js";
import { walkDirectory } from "./walk-directory.js";
import { checkWorkspaceOption } from "./workspace-option.js";

export interface GrepArgs {
  pattern: string;
  path?: string;
  include?: string;
  ignore_case?: boolean;
  max_results?: number;
}

export interface GrepToolOptions {
  workspace: string;
  /** Default for `max_results` (100). */
  maxResults?: number;
  /** Larger files are skipped (default 2 MB): they are usually generated or data, and slow to scan. */
  maxFileBytes?: number;
  /** Matching lines longer than this are cut around the match (default 300). */
  maxLineCharacters?: number;
  /** Most bytes of output per call, whatever `max_results` asks for (default 50 KB). */
  maxOutputBytes?: number;
  /** Time the pattern may spend matching in one call before the search stops with an error (default 20 s). */
  patternTimeoutMs?: number;
}

interface SearchFile {
  absolute: string;
  shown: string;
}

export function createGrepTool(options: GrepToolOptions): Tool<GrepArgs> {
  checkWorkspaceOption("createGrepTool", options);
  const defaultMaxResults = options.maxResults ?? 100;
  const maxFileBytes = options.maxFileBytes ?? 2 * 1024 * 1024;
  const maxLineCharacters = options.maxLineCharacters ?? 300;
  const maxOutputBytes = options.maxOutputBytes ?? 50 * 1024;
  const patternTimeoutMs = options.patternTimeoutMs ?? 20_000;
  return defineTool<GrepArgs>({
    name: "grep",
    description:
      "Search file contents with a JavaScript regular expression, line by line. Returns matching lines as " +
      "`path:line: text` (workspace-relative path, 1-based line number), files in name order. Use it to find " +
      "where something is defined or used before reading files; then read_file with an offset near the line. " +
      "`include` filters file names with a glob ('*.ts', '*.{ts,tsx}'; a pattern with '/' is matched against " +
      "the path below `path`). node_modules, .git, .ctxkit, binary files and files over " +
      `${formatByteSize(maxFileBytes)} are skipped; long lines are cut. At most max_results lines ` +
      `(default ${defaultMaxResults}) and ${formatByteSize(maxOutputBytes)} are shown, with a count of the rest. ` +
      'Example: {"pattern": "function\\\\s+createAgent", "path": "src", "include": "*.ts"}',
    parameters: {
      type: "object",
      properties: {
        pattern: {
          type: "string",
          description: "JavaScript regular expression (no slashes, no flags), e.g. \"TODO|FIXME\" or \"import .* from \\\"node:fs\\\"\".",
        },
        path: { type: "string", description: "File or directory to search, relative to the workspace (default \".\")." },
        include: { type: "string", description: "Glob on file names to search, e.g. \"*.ts\" or \"*.{md,txt}\"." },
        ignore_case: { type: "boolean", description: "Match case-insensitively (default false)." },
        max_results: {
          type: "integer",
          minimum: 1,
          description: `Most matching lines to return (default ${defaultMaxResults}).`,
        },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
    parallelSafe: true,
    source: "workspace",
    risk: "read",
    async execute(args, context) {
      const matcher = compilePattern(args.pattern, args.ignore_case === true);
      const maxResults = Math.max(1, Math.floor(args.max_results ?? defaultMaxResults));
      const base = await resolveWorkspacePath(options.workspace, args.path ?? ".", { mustExist: true });
      const baseShown = toWorkspaceRelative(options.workspace, base);
      const directory = await openWorkspaceDirectory(options.workspace, args.path ?? ".", "grep");
      const results: string[] = [];
      let outputBytes = 0;
      let cutByBytes = false;
      let totalMatches = 0;
      let filesSearched = 0;
      let largeFilesSkipped = 0;
      const scan = { stoppedEarly: false };
      const worker = new RegexWorker(matcher, patternTimeoutMs, context.signal);
      try {
        for await (const file of filesToSearch(directory ?? base, baseShown, args.include, scan)) {
          const content = await readText(options.workspace, file, maxFileBytes, file.absolute === base);
          if (content.kind === "too_large") largeFilesSkipped += 1;
          if (content.kind !== "text") continue;
          filesSearched += 1;
          const room = cutByBytes ? 0 : maxResults - results.length;
          const found = await worker.matchLines(content.text, room, file.shown);
          totalMatches += found.total;
          for (const match of found.matches) {
            const line = content.text.slice(match.lineStart, match.lineEnd);
            const result = `${file.shown}:${match.lineNumber}: ${excerpt(line, match.matchIndex, maxLineCharacters)}`;
            const bytes = Buffer.byteLength(result) + 1;
            // The byte cap holds whatever max_results asks for; at least one line is always shown.
            if (results.length > 0 && outputBytes + bytes > maxOutputBytes) {
              cutByBytes = true;
              break;
            }
            results.push(result);
            outputBytes += bytes;
          }
        }
      } finally {
        await worker.close();
        await directory?.close();
      }
      const notes: string[] = [];
      if (cutByBytes) {
        notes.push(
          `${totalMatches - results.length} more matches not shown (${totalMatches} in total; output is capped at ` +
            `${formatByteSize(maxOutputBytes)} per call); narrow the pattern, path or include.`,
        );
      } else if (totalMatches > maxResults) {
        notes.push(
          `${totalMatches - maxResults} more matches not shown (${totalMatches} in total); narrow the pattern, ` +
            "path or include, or raise max_results.",
        );
      }
      if (largeFilesSkipped > 0) {
        notes.push(`Skipped ${countOf(largeFilesSkipped, "file")} larger than ${formatByteSize(maxFileBytes)}.`);
      }
      if (scan.stoppedEarly) notes.push(scanStoppedNote(maximumScannedEntries));
      if (results.length === 0) {
        const filter = args.include === undefined ? "" : ` matching '${args.include}'`;
        notes.unshift(`No matches for /${args.pattern}/ in '${baseShown}' (searched ${countOf(filesSearched, "file")}${filter}).`);
        return notes.join("\n\n");
      }
      return [results.join("\n"), ...notes].join("\n\n");
    },
  });
}

function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? "i" : "");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolError(
      "invalid_arguments",
      `${reason}. grep takes a JavaScript regular expression; escape ( ) [ ] { } . * + ? | \\ with a ` +
        "backslash to match them literally.",
    );
  }
}

/** Files under `base` that `include` selects; an explicitly named file is searched even if it would not. */
async function* filesToSearch(
  base: WorkspaceDirectory | string,
  baseShown: string,
  include: string | undefined,
  scan: { stoppedEarly: boolean },
): AsyncGenerator<SearchFile> {
  // A path that is not a directory is one file (read through openWorkspaceFile, which checks it).
  if (typeof base === "string") {
    yield { absolute: base, shown: baseShown };
    return;
  }
  const includeMatcher = include === undefined ? undefined : globToRegExp(include);
  const matchesName = include === undefined || isNameOnlyGlob(include);
  let scanned = 0;
  for await (const entry of walkDirectory(base)) {
    scanned += 1;
    if (scanned > maximumScannedEntries) {
      scan.stoppedEarly = true;
      return;
    }
    if (entry.kind !== "file") continue;
    const subject = matchesName ? path.posix.basename(entry.relative) : entry.relative;
    if (includeMatcher !== undefined && !includeMatcher.test(subject)) continue;
    yield { absolute: entry.absolute, shown: joinShown(baseShown, entry.relative) };
  }
}

type FileText = { kind: "text"; text: string } | { kind: "too_large" } | { kind: "unreadable" };

/**
 * Binary and unreadable files count as "unreadable" and are skipped silently, and so are FIFOs and
 * devices and files that moved outside the workspace since the walk saw them (openWorkspaceFile
 * refuses those). A file named explicitly as `path` reports why instead.
 */
async function readText(workspace: string, file: SearchFile, maxFileBytes: number, isExplicit: boolean): Promise<FileText> {
  let opened;
  try {
    opened = await openWorkspaceFile(workspace, file.absolute, { mode: "read", toolName: "grep" });
  } catch (error) {
    if (isExplicit) throw error;
    return { kind: "unreadable" };
  }
  try {
    if (opened.stats.size > maxFileBytes) return { kind: "too_large" };
    const bytes = await opened.handle.readFile();
    return looksBinary(bytes) ? { kind: "unreadable" } : { kind: "text", text: bytes.toString("utf8") };
  } catch {
    return { kind: "unreadable" };
  } finally {
    await opened.handle.close();
  }
}

/** A long line is shown as a window that starts a little before the match, so the match stays visible. */
function excerpt(line: string, matchIndex: number, maxLineCharacters: number): string {
  if (line.length <= maxLineCharacters) return line;
  const start = Math.max(0, Math.min(matchIndex - Math.floor(maxLineCharacters / 4), line.length - maxLineCharacters));
  const prefix = start > 0 ? "…" : "";
  const suffix = start + maxLineCharacters < line.length ? "…" : "";
  return `${prefix}${line.slice(start, start + maxLineCharacters)}${suffix} [line cut: ${line.length} characters]`;
}
