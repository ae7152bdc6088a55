import { textOf, thinkingOf, toolCallsOf, type Message } from "../types/index.js";

/** A message as the diff shows it: who wrote it and its text, cut to a size a page can show. */
export interface MessageView {
  id: string;
  role: Message["role"];
  origin: string;
  toolName?: string;
  text: string;
  /** Characters cut from the end of `text`. */
  truncated: number;
}

// Recorded tool outputs reach 868k characters; the diff shows the head and says how much is cut.
const MAX_CHARS = 20_000;

export function toMessageView(message: Message): MessageView {
  const full = fullText(message);
  const view: MessageView = { id: message.meta.id, role: message.role, origin: message.meta.origin, text: full.slice(0, MAX_CHARS), truncated: Math.max(0, full.length - MAX_CHARS) };
  if (message.role === "tool") view.toolName = message.toolName;
  return view;
}

function fullText(message: Message): string {
  if (message.role !== "assistant") return message.content;
  const thinking = thinkingOf(message).map((part) => `<think>${part.thinking}</think>\n`);
  const calls = toolCallsOf(message).map((call) => `\n→ ${call.name}(${call.argumentsText})`);
  return `${thinking.join("")}${textOf(message)}${calls.join("")}`;
}
