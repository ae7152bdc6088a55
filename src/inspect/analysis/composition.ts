import type { Message } from "../../types/index.js";

/** Where a prompt's tokens come from. */
export interface Composition {
  system: number;
  tools: number;
  /** What a person typed (the task, follow-up questions). */
  user: number;
  /** The model's own turns replayed as history, with the chat format's wrappers. */
  assistant: number;
  /** Tool results, whether sent as `tool` messages or pasted into user messages (mini-swe-agent). */
  toolResults: number;
  /** Messages the harness wrote itself: status bars, reminders, summaries, format feedback. */
  harness: number;
}

export type CompositionPart = keyof Composition;

export const COMPOSITION_PARTS: readonly CompositionPart[] = ["system", "tools", "user", "assistant", "toolResults", "harness"];

export function emptyComposition(): Composition {
  return { system: 0, tools: 0, user: 0, assistant: 0, toolResults: 0, harness: 0 };
}

/**
 * The part a trajectory message belongs to. The origin decides before the role, because importers
 * mark tool output sent as a user message with origin "tool" and harness text with origin "harness".
 */
export function compositionPartOf(message: Message): CompositionPart {
  if (message.role === "assistant") return "assistant";
  if (message.role === "tool" || message.meta.origin === "tool") return "toolResults";
  if (message.meta.origin === "harness") return "harness";
  return message.role === "system" ? "system" : "user";
}
