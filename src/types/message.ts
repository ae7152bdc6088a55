/**
 * The one internal message model. Providers translate to and from their wire formats at the
 * boundary; everything else in ctxkit speaks only these types. Every shape here is plain JSON so a
 * message can be stored in a session file and replayed byte-identically.
 */

/** Who produced a message: the person, the model, a tool, or the harness itself (status bar, summaries). */
export type MessageOrigin = "user" | "model" | "tool" | "harness";

export interface MessageMeta {
  /** Stable id, unique within a session. */
  id: string;
  origin: MessageOrigin;
  /** ISO-8601 time the message was created (injected clock, so tests are deterministic). */
  createdAt: string;
}

export interface TextPart {
  type: "text";
  text: string;
}

/**
 * Reasoning the model produced. `signature` (Anthropic) and `redacted` data are opaque provider
 * tokens: they are kept byte-exact and sent back unchanged, because the provider verifies them.
 */
export interface ThinkingPart {
  type: "thinking";
  thinking: string;
  signature?: string;
  /** Anthropic `redacted_thinking` blocks carry only encrypted `data`. */
  redactedData?: string;
  /**
   * Opaque reasoning items as JSON text, sent back unchanged: OpenRouter's `reasoning_details`
   * (Anthropic signatures, OpenAI encrypted reasoning), which the upstream verifies in a tool loop.
   */
  providerDetails?: string;
}

export interface ToolCallPart {
  type: "tool_call";
  id: string;
  name: string;
  /** The arguments exactly as the model produced them (may be invalid JSON). Replayed verbatim. */
  argumentsText: string;
  /** Parsed arguments, or undefined when `argumentsText` is not valid JSON. */
  arguments: unknown;
}

export type AssistantPart = TextPart | ThinkingPart | ToolCallPart;

export interface SystemMessage {
  role: "system";
  content: string;
  meta: MessageMeta;
}

export interface UserMessage {
  role: "user";
  content: string;
  meta: MessageMeta;
}

export type StopReason = "stop" | "tool_calls" | "length" | "content_filter" | "aborted" | "error";

export interface AssistantMessage {
  role: "assistant";
  content: AssistantPart[];
  meta: MessageMeta;
  /** Unified stop reason plus the provider's raw value, for debugging vendor quirks. */
  stopReason?: StopReason;
  rawStopReason?: string;
}

export interface ToolMessage {
  role: "tool";
  toolCallId: string;
  toolName: string;
  content: string;
  isError: boolean;
  meta: MessageMeta;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export function textOf(message: AssistantMessage): string {
  return message.content
    .filter((part): part is TextPart => part.type === "text")
    .map((part) => part.text)
    .join("");
}

export function toolCallsOf(message: AssistantMessage): ToolCallPart[] {
  return message.content.filter((part): part is ToolCallPart => part.type === "tool_call");
}

export function thinkingOf(message: AssistantMessage): ThinkingPart[] {
  return message.content.filter((part): part is ThinkingPart => part.type === "thinking");
}
