import { toolCallsOf, type Message } from "../../types/index.js";

/**
 * A stretch of the context that compression keeps or removes as a whole: an assistant message with
 * tool calls together with the results that answer them, or any other single message. Splitting a
 * unit would leave a tool result without its call (or a call without its result), which providers
 * reject with a 400.
 */
export interface ConversationUnit {
  start: number;
  /** Exclusive. */
  end: number;
}

export function groupIntoUnits(messages: readonly Message[]): ConversationUnit[] {
  const units: ConversationUnit[] = [];
  let index = 0;
  while (index < messages.length) {
    const message = messages[index]!;
    let end = index + 1;
    if (message.role === "assistant") {
      const pending = new Set(toolCallsOf(message).map((call) => call.id));
      while (pending.size > 0 && end < messages.length) {
        const next = messages[end]!;
        if (next.role !== "tool" || !pending.has(next.toolCallId)) break;
        pending.delete(next.toolCallId);
        end += 1;
      }
    }
    units.push({ start: index, end });
    index = end;
  }
  return units;
}

/**
 * Everything that would make a provider reject the context: a tool result whose call is not in the
 * assistant message before it, and a tool call without a result (except in the last message, whose
 * calls are still running). Empty when the context is well-formed.
 */
export function findSplitViolations(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  let open = new Set<string>();
  let openAt = -1;
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") {
      if (!open.has(message.toolCallId)) problems.push(`message ${index}: tool result ${message.toolCallId} has no tool call before it`);
      open.delete(message.toolCallId);
      continue;
    }
    if (open.size > 0) problems.push(`message ${openAt}: tool calls ${[...open].join(", ")} have no result`);
    open = new Set(message.role === "assistant" ? toolCallsOf(message).map((call) => call.id) : []);
    openAt = index;
  }
  return problems;
}
