import type { AssistantMessage, Message, SystemPrompt, UserMessage } from "../../types/index.js";
import type { ReasoningRoundTrip } from "./vendor-profiles.js";
import type { OpenAIWireMessage, OpenAIWireToolCall } from "./openai-wire-types.js";

export interface ConvertToOpenAIMessagesInput {
  system: SystemPrompt;
  messages: Message[];
  tail?: UserMessage;
  reasoningRoundTrip: ReasoningRoundTrip;
}

export interface OpenAIMessages {
  /** The system message and the trajectory: the part of the prompt that must stay byte-stable. */
  prefix: OpenAIWireMessage[];
  /** The status-bar message, sent last and never cached. */
  tail?: OpenAIWireMessage;
}

/**
 * Translates the internal messages into Chat Completions messages. The system prompt becomes ONE
 * system message (the session part after a blank line), so its bytes only depend on the session.
 */
export function convertToOpenAIMessages(input: ConvertToOpenAIMessagesInput): OpenAIMessages {
  const prefix: OpenAIWireMessage[] = [];
  const systemText = systemTextOf(input.system);
  if (systemText !== "") prefix.push({ role: "system", content: systemText });
  for (const message of input.messages) prefix.push(convertMessage(message, input.reasoningRoundTrip));
  if (input.tail === undefined) return { prefix };
  return { prefix, tail: { role: "user", content: input.tail.content } };
}

function systemTextOf(system: SystemPrompt): string {
  const sessionText = system.sessionText ?? "";
  if (sessionText === "") return system.staticText;
  if (system.staticText === "") return sessionText;
  return `${system.staticText}\n\n${sessionText}`;
}

function convertMessage(message: Message, reasoningRoundTrip: ReasoningRoundTrip): OpenAIWireMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: message.content };
    case "assistant":
      return convertAssistant(message, reasoningRoundTrip);
    case "tool":
      // Chat Completions has no error flag on tool results; the text itself says what failed.
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}

function convertAssistant(message: AssistantMessage, reasoningRoundTrip: ReasoningRoundTrip): OpenAIWireMessage {
  let text = "";
  let reasoning: string | undefined;
  const toolCalls: OpenAIWireToolCall[] = [];
  for (const part of message.content) {
    if (part.type === "text") text += part.text;
    else if (part.type === "thinking") reasoning = (reasoning ?? "") + part.thinking;
    else {
      // The model's own argument text, byte for byte: re-serialising parsed arguments would change
      // key order or spacing and break the cached prefix.
      toolCalls.push({ id: part.id, type: "function", function: { name: part.name, arguments: part.argumentsText } });
    }
  }
  const wire: OpenAIWireMessage = { role: "assistant", content: text === "" && toolCalls.length > 0 ? null : text };
  if (reasoningRoundTrip === "send" && reasoning !== undefined) wire.reasoning_content = reasoning;
  if (toolCalls.length > 0) wire.tool_calls = toolCalls;
  return wire;
}
