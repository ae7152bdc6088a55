import type { Message, UserMessage } from "../../../types/index.js";

/** Opens every summary message, so a later compaction recognises and merges an earlier summary. */
export const summaryHeader = "This session continues an earlier conversation that ran out of context. Summary of the earlier part:";

const taskChars = 2_000;
const lineChars = 200;

/**
 * A model-free stand-in for an LLM compaction summary, like the ones Claude Code or Codex write:
 * the task, then one line per step (what the model did, the first line of what came back),
 * merged with the previous summary, trimmed to `maxChars` by dropping the oldest steps. It keeps
 * what a short summary keeps — the task and the commands — and loses what it loses: the bulk of
 * tool output.
 */
export function summarizeDeterministically(messages: readonly Message[], maxChars: number): string {
  const lines: string[] = [];
  let task: string | undefined;
  for (const message of messages) {
    if (message.role === "user" && message.content.startsWith(summaryHeader)) {
      lines.push(...message.content.slice(summaryHeader.length).split("\n").filter((line) => line !== "" && !line.startsWith("Task: ")));
      task ??= taskOf(message.content);
    } else if (message.role === "user" && task === undefined) task = clip(message.content, taskChars);
    else lines.push(stepLine(message));
  }
  const head = `${summaryHeader}\nTask: ${task ?? "(unknown)"}\n`;
  const kept: string[] = [];
  let size = head.length;
  for (let index = lines.length - 1; index >= 0; index--) {
    size += lines[index]!.length + 1;
    if (size > maxChars) {
      kept.unshift(`… (${index + 1} earlier steps omitted)`);
      break;
    }
    kept.unshift(lines[index]!);
  }
  return `${head}${kept.join("\n")}`;
}

/** The summary as the user message that replaces the compacted part of the context. */
export function summaryMessage(text: string, id: string, createdAt: string): UserMessage {
  return { role: "user", content: text, meta: { id, origin: "harness", createdAt } };
}

function stepLine(message: Message): string {
  switch (message.role) {
    case "system":
    case "user":
      return `User: ${clip(message.content, lineChars)}`;
    case "tool": {
      const lineCount = message.content.split("\n").length;
      const first = message.content.split("\n").find((line) => line.trim() !== "" && !line.startsWith("<returncode>")) ?? "";
      return `Result${message.isError ? " (error)" : ""}: ${clip(first, lineChars)} (${lineCount} lines)`;
    }
    case "assistant": {
      const pieces = message.content.flatMap((part) => {
        if (part.type === "text") return [clip(part.text.split("\n")[0] ?? "", lineChars)];
        if (part.type === "tool_call") return [`→ ${part.name} ${clip(part.argumentsText, lineChars)}`];
        return [];
      });
      return `Assistant: ${pieces.join(" ")}`;
    }
  }
}

function taskOf(summary: string): string | undefined {
  const line = summary.split("\n").find((candidate) => candidate.startsWith("Task: "));
  return line?.slice("Task: ".length);
}

function clip(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= maxChars ? flat : `${flat.slice(0, maxChars)}…`;
}
