import { toolCallsOf, type Message, type ToolCallPart } from "../../../types/index.js";

/** A file the model read, with the newest output it saw of it. */
export interface FileRead {
  path: string;
  /** The tool result of the newest read of that path. */
  content: string;
}

// Shell commands that print a file (mini-swe-agent has no read tool: `cat`, `nl -ba`, `sed -n`,
// `head`, `tail` are how its model reads), up to the first pipe or command separator.
const shellRead = /^\s*(?:cat|nl|head|tail|sed\s+-n)\b([^|;&<>]*)/;
const pathLike = /^(?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)*\.\w+$/;

/** The path a call reads, for a read tool (`path`, `file_path` argument) or a shell read command. */
export function readPathOf(call: ToolCallPart): string | undefined {
  const args = call.arguments as Record<string, unknown> | undefined;
  if (args !== undefined && args !== null && typeof args === "object") {
    for (const key of ["file_path", "path", "file"]) if (typeof args[key] === "string" && /read/i.test(call.name)) return args[key] as string;
    const command = args["command"];
    if (typeof command === "string") {
      const words = shellRead.exec(command)?.[1]?.trim().split(/\s+/) ?? [];
      return words.reverse().find((word) => pathLike.test(word.replace(/^['"]|['"]$/g, "")))?.replace(/^['"]|['"]$/g, "");
    }
  }
  return undefined;
}

/** The newest `limit` distinct files read in `messages`, newest first, each with its newest successful read. */
export function recentFileReads(messages: readonly Message[], limit: number): FileRead[] {
  const calls = new Map<string, ToolCallPart>();
  for (const message of messages) if (message.role === "assistant") for (const call of toolCallsOf(message)) calls.set(call.id, call);
  const reads: FileRead[] = [];
  for (let index = messages.length - 1; index >= 0 && reads.length < limit; index--) {
    const message = messages[index]!;
    if (message.role !== "tool" || message.isError) continue;
    const call = calls.get(message.toolCallId);
    const path = call === undefined ? undefined : readPathOf(call);
    if (path === undefined || reads.some((read) => read.path === path)) continue;
    reads.push({ path, content: message.content });
  }
  return reads;
}
