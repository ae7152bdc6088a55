import type { AssistantMessage, Message, UserMessage } from "../../types/index.js";
import { safeParseJson } from "../shared/canonical-json.js";
import type { AnthropicContentBlock, AnthropicMessage, AnthropicServerBlock } from "./anthropic-wire-types.js";
import { isServerBlockType } from "./server-block-type.js";

export interface AnthropicMessagesConversion {
  messages: AnthropicMessage[];
  /**
   * For each trajectory message, the wire message that holds its blocks. A message that produced no
   * block (an empty assistant turn) points at the wire message before it, or is undefined at the start.
   */
  wireIndexOf: Array<number | undefined>;
  /** Where the tail's text block landed, when there is a tail (always the last block of the last message). */
  tail?: { messageIndex: number; blockIndex: number };
}

/**
 * Converts the trajectory (and the tail) to Anthropic messages.
 *
 * Anthropic requires roles to alternate and "all tool_result blocks of an assistant turn in the next
 * user message", so consecutive same-role messages merge into one wire message: tool results become
 * `tool_result` blocks of one user message, and a user message (or the tail) right after them is
 * appended to it as a text block. Content is always a block array, so merging later blocks never
 * rewrites bytes already sent.
 */
export function convertToAnthropicMessages(trajectory: Message[], tail?: UserMessage): AnthropicMessagesConversion {
  const messages: AnthropicMessage[] = [];
  const wireIndexOf: Array<number | undefined> = [];

  const append = (role: AnthropicMessage["role"], blocks: AnthropicContentBlock[]): void => {
    if (blocks.length === 0) return;
    const last = messages[messages.length - 1];
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };

  for (const message of trajectory) {
    switch (message.role) {
      // Anthropic has no system role inside `messages`; a system message in the trajectory (a harness
      // note) is sent as user text, which keeps its position in the conversation.
      case "user":
      case "system":
        append("user", [{ type: "text", text: message.content }]);
        break;
      case "assistant":
        append("assistant", convertAssistantContent(message));
        break;
      case "tool":
        append("user", [
          {
            type: "tool_result",
            tool_use_id: message.toolCallId,
            content: message.content,
            ...(message.isError ? { is_error: true as const } : {}),
          },
        ]);
        break;
    }
    wireIndexOf.push(messages.length === 0 ? undefined : messages.length - 1);
  }

  if (tail === undefined) return { messages, wireIndexOf };
  append("user", [{ type: "text", text: tail.content }]);
  const messageIndex = messages.length - 1;
  const blockIndex = (messages[messageIndex]?.content.length ?? 1) - 1;
  return { messages, wireIndexOf, tail: { messageIndex, blockIndex } };
}

/**
 * Assistant parts in their original order. Server blocks (tool search) and thinking blocks go back byte-exact: "you must pass
 * thinking blocks back to the API … unmodified" when using tools with extended thinking
 * (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks).
 */
function convertAssistantContent(message: AssistantMessage): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case "thinking":
        if (part.redactedData !== undefined) blocks.push({ type: "redacted_thinking", data: part.redactedData });
        // Thinking without a signature came from another provider or a cut stream; the API rejects an
        // unsigned thinking block, and it carries no instruction the model needs, so it is left out.
        else if (part.signature !== undefined && part.signature !== "")
          blocks.push({ type: "thinking", thinking: part.thinking, signature: part.signature });
        break;
      case "text":
        // "text content blocks must be non-empty"
        if (part.text !== "") blocks.push({ type: "text", text: part.text });
        break;
      case "tool_call":
        blocks.push({ type: "tool_use", id: part.id, name: part.name, input: toolInput(part.argumentsText) });
        break;
      case "provider_block": {
        // Parsed from the text it was stored as, so JSON.stringify gives those bytes back.
        const parsed = safeParseJson(part.block);
        if (part.provider === "anthropic" && parsed.success && isServerBlock(parsed.value)) blocks.push(parsed.value);
        break;
      }
    }
  }
  return blocks;
}

/**
 * `tool_use.input` must be a JSON object. When the model produced invalid JSON (or a non-object), the
 * call is replayed with `{}`: the original text cannot be sent, and the paired error tool result
 * already tells the model its arguments were malformed. Parsed from `argumentsText` (the verbatim
 * record) so the bytes depend only on what the model produced.
 */
function toolInput(argumentsText: string): Record<string, unknown> {
  const parsed = safeParseJson(argumentsText);
  if (!parsed.success) return {};
  const value = parsed.value;
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function isServerBlock(value: unknown): value is AnthropicServerBlock {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  return isServerBlockType((value as { type?: unknown }).type);
}
