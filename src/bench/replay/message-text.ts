import type { AssistantMessage, Message } from "../../types/index.js";

/**
 * What the model wrote in a turn: its text and the values of its tool-call arguments. Parsed
 * arguments are read as their string leaves, because JSON escaping (`\n`, `\"`) would otherwise
 * glue a command's words to their neighbours. Reasoning is not "written": it is not sent back by
 * most agents and no tool ever sees it.
 */
export function writtenTextOf(message: AssistantMessage): string {
  const pieces: string[] = [];
  for (const part of message.content) {
    if (part.type === "text") pieces.push(part.text);
    else if (part.type === "tool_call") {
      pieces.push(part.name);
      if (part.arguments === undefined) pieces.push(part.argumentsText);
      else collectStrings(part.arguments, pieces);
    }
  }
  return pieces.join("\n");
}

const visibleTexts = new WeakMap<Message, string>();

/** Everything of a message the model reads when it is in the context (memoised: messages are immutable). */
export function visibleTextOf(message: Message): string {
  if (message.role !== "assistant") return message.content;
  let text = visibleTexts.get(message);
  if (text === undefined) {
    const thinking = message.content.flatMap((part) => (part.type === "thinking" ? [part.thinking] : []));
    text = thinking.length === 0 ? writtenTextOf(message) : `${thinking.join("\n")}\n${writtenTextOf(message)}`;
    visibleTexts.set(message, text);
  }
  return text;
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === "string") into.push(value);
  else if (typeof value === "number" || typeof value === "boolean") into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value !== null && typeof value === "object") for (const item of Object.values(value)) collectStrings(item, into);
}
