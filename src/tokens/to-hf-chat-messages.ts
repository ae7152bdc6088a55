import type { AssistantMessage, Message } from "../types/message.js";
import type { ModelRequest, SystemPrompt } from "../types/model-request.js";
import type { HfAssistantMessage, HfChatMessage, HfToolCall } from "./hf-chat-message.js";

/**
 * The internal request as the messages a chat template renders, the way an OpenAI-compatible server
 * (vLLM, SGLang) sees them after parsing ctxkit's request body: one system message, the trajectory,
 * and the tail as the final user message.
 */
export function toHfChatMessages(request: Pick<ModelRequest, "system" | "messages" | "tail">): HfChatMessage[] {
  const messages: HfChatMessage[] = [];
  const systemText = systemTextOf(request.system);
  if (systemText !== "") messages.push({ role: "system", content: systemText });
  for (const message of request.messages) messages.push(toHfChatMessage(message));
  if (request.tail !== undefined) messages.push({ role: "user", content: request.tail.content });
  return messages;
}

/** The system prompt as one text: the session part after a blank line, as providers send it. */
export function systemTextOf(system: SystemPrompt): string {
  const sessionText = system.sessionText ?? "";
  if (sessionText === "") return system.staticText;
  if (system.staticText === "") return sessionText;
  return `${system.staticText}\n\n${sessionText}`;
}

export function toHfChatMessage(message: Message): HfChatMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: message.content };
    case "assistant":
      return toHfAssistantMessage(message);
    case "tool":
      return { role: "tool", content: message.content, tool_call_id: message.toolCallId, name: message.toolName };
  }
}

function toHfAssistantMessage(message: AssistantMessage): HfChatMessage {
  let content = "";
  let reasoning: string | undefined;
  const toolCalls: HfToolCall[] = [];
  for (const part of message.content) {
    if (part.type === "text") content += part.text;
    else if (part.type === "thinking") reasoning = (reasoning ?? "") + part.thinking;
    else if (part.type === "tool_call") {
      toolCalls.push({
        id: part.id,
        type: "function",
        function: { name: part.name, arguments: argumentsOf(part.argumentsText, part.arguments) },
      });
    }
  }
  // `content: ""`, never null: Qwen3's template evaluates `'</think>' in message.content`, which fails
  // on None in Python ("argument of type 'NoneType' is not iterable").
  const hfMessage: HfAssistantMessage = { role: "assistant", content };
  if (reasoning !== undefined) hfMessage.reasoning_content = reasoning;
  if (toolCalls.length > 0) hfMessage.tool_calls = toolCalls;
  return hfMessage;
}

function argumentsOf(argumentsText: string, parsed: unknown): unknown {
  if (parsed !== undefined) return parsed;
  // Some models send "" for a call without arguments; servers read that as {}.
  if (argumentsText.trim() === "") return {};
  // Invalid JSON stays a string, which templates print verbatim.
  return argumentsText;
}
