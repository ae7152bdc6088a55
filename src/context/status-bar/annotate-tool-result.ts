import type { ToolMessage } from "../../types/index.js";
import type { ToolResultInfo } from "../context-policy.js";
import { formatTimestamp } from "./format-timestamp.js";
import { quoteName } from "./quote-external.js";

/**
 * `[2025-09-14 10:30:45] [Tool call #3 for 'read_file'] <result>` — when the result was created and
 * how many calls of this tool the session has made, written once before the result is frozen and
 * never re-rendered (seed, experiment 2-9: timestamps and the tool-call counter). On the same line as
 * the result, so a one-line preview of the result still shows what the tool said. Pure.
 */
export function annotateToolResult(result: ToolMessage, info: ToolResultInfo, options: { timestamps: boolean; counters: boolean; timeZone: string }): ToolMessage {
  const labels: string[] = [];
  if (options.timestamps) labels.push(`[${formatTimestamp(info.now, options.timeZone)}]`);
  if (options.counters) labels.push(`[Tool call #${info.callNumber} for '${quoteName(result.toolName)}']`);
  if (labels.length === 0) return result;
  return { ...result, content: `${labels.join(" ")} ${result.content}` };
}

