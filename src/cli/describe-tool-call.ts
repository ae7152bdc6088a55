import { createLazyRequire } from "../types/lazy-require.js";
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { ToolCallInfo } from "../loop/agent-options.js";
import type { TerminalStyle } from "./terminal-style.js";

const requireFromHere = createLazyRequire(import.meta.url);
/** Files larger than this are not read for a diff (the prompt shows the call's arguments instead). */
const maxDiffSourceBytes = 512_000;
const maxShownLines = 80;

/**
 * What a person is asked to approve, as they would want to read it: a unified diff for `write_file`
 * and `edit_file` (against the file as it is now), the command line for `bash`, and the arguments
 * as the model wrote them for anything else.
 */
export function describeToolCall(call: ToolCallInfo, workspace: string, style: TerminalStyle): string {
  const args = (call.arguments ?? {}) as Record<string, unknown>;
  if (call.name === "bash" && typeof args.command === "string") {
    return `  ${style.bold("$")} ${args.command.replace(/\n/g, "\n    ")}`;
  }
  if ((call.name === "write_file" || call.name === "edit_file") && typeof args.path === "string") {
    const before = readWorkspaceFile(workspace, args.path);
    const after =
      call.name === "write_file"
        ? typeof args.content === "string" ? args.content : undefined
        : applyEdit(before ?? "", args.old_string, args.new_string, args.replace_all === true);
    if (after !== undefined) return formatDiff(args.path, before, after, style);
  }
  return `  ${formatArguments(call.argumentsText)}`;
}

function applyEdit(text: string, oldString: unknown, newString: unknown, replaceAll: boolean): string | undefined {
  if (typeof oldString !== "string" || typeof newString !== "string" || oldString === "" || !text.includes(oldString)) return undefined;
  return replaceAll ? text.split(oldString).join(newString) : text.replace(oldString, () => newString);
}

function formatDiff(path: string, before: string | undefined, after: string, style: TerminalStyle): string {
  // diff is loaded by the first write or edit asked about, not when the CLI starts.
  const { structuredPatch } = requireFromHere("diff") as typeof import("diff");
  const patch = structuredPatch(path, path, before ?? "", after, "", "", { context: 3 });
  const lines: string[] = [`  ${style.bold(before === undefined ? `new file ${path}` : path)}`];
  for (const hunk of patch.hunks) {
    lines.push(`  ${style.cyan(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`)}`);
    for (const line of hunk.lines) {
      lines.push(`  ${line.startsWith("+") ? style.green(line) : line.startsWith("-") ? style.red(line) : line}`);
    }
  }
  if (patch.hunks.length === 0) lines.push(`  ${style.dim("(no change)")}`);
  if (lines.length > maxShownLines + 1) {
    const hidden = lines.length - maxShownLines - 1;
    return [...lines.slice(0, maxShownLines + 1), `  ${style.dim(`… ${hidden} more diff lines`)}`].join("\n");
  }
  return lines.join("\n");
}

/** The file's text when it is inside the workspace, small and readable; undefined when it does not exist. */
function readWorkspaceFile(workspace: string, path: string): string | undefined {
  const target = resolve(workspace, path);
  const inside = relative(workspace, target);
  if (inside.startsWith("..") || isAbsolute(inside)) return undefined;
  try {
    if (statSync(target).size > maxDiffSourceBytes) return undefined;
    return readFileSync(target, "utf8");
  } catch {
    return undefined;
  }
}

export function formatArguments(argumentsText: string): string {
  try {
    return JSON.stringify(JSON.parse(argumentsText), null, 2).replace(/\n/g, "\n  ");
  } catch {
    return argumentsText;
  }
}
