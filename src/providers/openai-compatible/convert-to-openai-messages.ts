import type { AssistantMessage, Message, SystemPrompt, UserMessage } from "../../types/index.js";
import type { ReasoningRoundTrip } from "./vendor-profiles.js";
import type { OpenAIWireMessage, OpenAIWireToolCall } from "./openai-wire-types.js";

export interface ConvertToOpenAIMessagesInput {
  system: SystemPrompt;
  messages: Message[];
  tail?: UserMessage;
  reasoningRoundTrip: ReasoningRoundTrip;
  /** With "send": also give tool-call turns without reasoning `reasoning_content: ""` (DeepSeek requires it). */
  reasoningOnToolCallTurns?: boolean;
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
  const reasoning: ReasoningPolicy = { roundTrip: input.reasoningRoundTrip, onToolCallTurns: input.reasoningOnToolCallTurns === true };
  for (const message of input.messages) prefix.push(convertMessage(message, reasoning));
  if (input.tail === undefined) return { prefix };
  return { prefix, tail: { role: "user", content: input.tail.content } };
}

function systemTextOf(system: SystemPrompt): string {
  const sessionText = system.sessionText ?? "";
  if (sessionText === "") return system.staticText;
  if (system.staticText === "") return sessionText;
  return `${system.staticText}\n\n${sessionText}`;
}

interface ReasoningPolicy {
  roundTrip: ReasoningRoundTrip;
  onToolCallTurns: boolean;
}

function convertMessage(message: Message, reasoningPolicy: ReasoningPolicy): OpenAIWireMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: message.content };
    case "assistant":
      return convertAssistant(message, reasoningPolicy);
    case "tool":
      // Chat Completions has no error flag on tool results; the text itself says what failed.
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}

function convertAssistant(message: AssistantMessage, reasoningPolicy: ReasoningPolicy): OpenAIWireMessage {
  let text = "";
  let reasoning: string | undefined;
  const reasoningDetails: unknown[] = [];
  const toolCalls: OpenAIWireToolCall[] = [];
  for (const part of message.content) {
    if (part.type === "text") text += part.text;
    else if (part.type === "thinking") {
      reasoning = (reasoning ?? "") + part.thinking;
      if (part.providerDetails !== undefined) reasoningDetails.push(...parseDetails(part.providerDetails));
    } else if (part.type === "tool_call") {
      // The model's own argument text, byte for byte: re-serialising parsed arguments would change
      // key order or spacing and break the cached prefix.
      toolCalls.push({ id: part.id, type: "function", function: { name: part.name, arguments: part.argumentsText } });
    }
    // A provider_block is another provider's server-side block (Anthropic tool search): nothing to send here.
  }
  const wire: OpenAIWireMessage = { role: "assistant", content: text === "" && toolCalls.length > 0 ? null : text };
  // DeepSeek's thinking mode rejects a tool-call turn without the field even when its reasoning was
  // empty: "The reasoning_content in the thinking mode must be passed back to the API." (HTTP 400,
  // deepseek-ai/deepseek-harness discussions #739 and #1850). So such turns carry "".
  const emptyOnToolCalls = reasoningPolicy.onToolCallTurns && toolCalls.length > 0;
  if (reasoningPolicy.roundTrip === "send" && (reasoning !== undefined || emptyOnToolCalls)) wire.reasoning_content = reasoning ?? "";
  // gpt-oss (harmony): only a tool-calling turn's analysis is rendered back; llama-server copies it into
  // the template's `thinking` field only when the message has `tool_calls`.
  if (reasoningPolicy.roundTrip === "tool-calls" && reasoning !== undefined && toolCalls.length > 0) wire.reasoning_content = reasoning;
  // OpenRouter verifies these items (Anthropic signatures, OpenAI encrypted reasoning) when the tool
  // loop continues; they go back whatever the reasoning_content policy is.
  if (reasoningDetails.length > 0) wire.reasoning_details = reasoningDetails;
  if (toolCalls.length > 0) wire.tool_calls = toolCalls;
  return wire;
}

/** Stored by the accumulator as a JSON array; anything else (a hand-edited session) is sent as nothing. */
function parseDetails(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}
