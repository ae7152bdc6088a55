import { toolCallsOf, type AssistantMessage, type Message, type MessageMeta, type ToolMessage } from "../types/index.js";

/**
 * What a fork child appends after the parent's trajectory. The parent's last request ended before
 * the assistant message that made the `task` call; the child keeps that message too, so its first
 * request repeats the parent's bytes and only adds to them. Every call of that message needs a
 * result (providers reject a tool call without one): the fork's own call gets a placeholder that
 * says the conversation continues here, the turn's other calls say the parent runs them. Then the
 * instruction follows as a user message (appended by the child's run).
 */
export function forkResults(messages: readonly Message[], callId: string, createMeta: () => MessageMeta): ToolMessage[] {
  const assistant = messages.at(-1);
  if (assistant?.role !== "assistant") return [];
  return toolCallsOf(assistant as AssistantMessage).map((call) => ({
    role: "tool",
    toolCallId: call.id,
    toolName: call.name,
    content:
      call.id === callId
        ? "Forked: you are now a sub-agent started from this point of the conversation. Your instruction follows; your final answer goes back to the agent that forked you."
        : "Not run in this fork: the agent that forked you runs this call.",
    isError: false,
    meta: createMeta(),
  }));
}

/** The parent's trajectory up to and including the assistant message that made call `callId`. */
export function forkPrefixMessages(messages: readonly Message[], callId: string): Message[] | undefined {
  const index = messages.findLastIndex(
    (message) => message.role === "assistant" && toolCallsOf(message).some((call) => call.id === callId),
  );
  return index === -1 ? undefined : messages.slice(0, index + 1);
}
