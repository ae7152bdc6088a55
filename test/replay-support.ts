import type { AssistantMessage, Message, ToolMessage, UserMessage } from "../src/types/index.js";
import type { TokenCounter } from "../src/tokens/index.js";

/** Small builders for hand-made conversations in the replay tests. */
export function user(id: string, content: string, origin: "user" | "tool" | "harness" = "user"): UserMessage {
  return { role: "user", content, meta: { id, origin, createdAt: "" } };
}

export function assistant(id: string, text: string, call?: { id: string; name: string; args: Record<string, unknown> }): AssistantMessage {
  const content: AssistantMessage["content"] = text === "" ? [] : [{ type: "text", text }];
  if (call) content.push({ type: "tool_call", id: call.id, name: call.name, argumentsText: JSON.stringify(call.args), arguments: call.args });
  return { role: "assistant", content, meta: { id, origin: "model", createdAt: "" } };
}

export function tool(id: string, toolCallId: string, content: string): ToolMessage {
  return { role: "tool", toolCallId, toolName: "bash", content, isError: false, meta: { id, origin: "tool", createdAt: "" } };
}

/** One token per character: makes every expected number in a test checkable by hand. */
export const characterCounter: TokenCounter = { name: "characters", exact: false, count: (text) => text.length };

export function roles(messages: readonly Message[]): string[] {
  return messages.map((message) => message.role);
}
