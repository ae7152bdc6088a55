import type { AssistantPart, Message, MessageMeta, ToolMessage } from "../../types/index.js";
import { isRecord, optionalString, type JsonObject } from "./json-guards.js";
import type { SkippedRecords } from "./skipped-records.js";

/**
 * Converts the content of a Claude Code user line. A string is typed text; an array may mix
 * `tool_result` blocks (each becomes a tool message) with text (consecutive text becomes one user
 * message), kept in block order. `metaFor(k)` gives the k-th message of the line its meta.
 */
export function convertClaudeCodeUserContent(
  content: string | JsonObject[],
  metaFor: (index: number, origin: MessageMeta["origin"]) => MessageMeta,
  toolNames: Map<string, string>,
  origin: "user" | "harness",
): Message[] {
  if (typeof content === "string") return [{ role: "user", content, meta: metaFor(0, origin) }];
  const messages: Message[] = [];
  let text: string[] = [];
  const flushText = () => {
    if (text.length > 0) messages.push({ role: "user", content: text.join("\n"), meta: metaFor(messages.length, origin) });
    text = [];
  };
  for (const block of content) {
    if (block.type === "tool_result") {
      flushText();
      messages.push(toolMessage(block, metaFor(messages.length, "tool"), toolNames));
    } else {
      text.push(blockText(block));
    }
  }
  flushText();
  return messages;
}

function toolMessage(block: JsonObject, meta: MessageMeta, toolNames: Map<string, string>): ToolMessage {
  const toolCallId = optionalString(block.tool_use_id) ?? "";
  const content = Array.isArray(block.content) ? block.content.map((part) => blockText(isRecord(part) ? part : {})).join("\n") : optionalString(block.content) ?? "";
  return { role: "tool", toolCallId, toolName: toolNames.get(toolCallId) ?? "", content, isError: block.is_error === true, meta };
}

/** Text of a text block; other blocks (images, documents) leave a placeholder so their place shows. */
function blockText(block: JsonObject): string {
  if (typeof block.text === "string") return block.text;
  return `[${optionalString(block.type) ?? "content"}]`;
}

/**
 * Converts assistant content blocks. Server-side tool blocks (web search and its results) and block
 * types added later are skipped, counted in `skipped`: they are not tool calls the harness ran, and
 * have no internal equivalent.
 */
export function convertClaudeCodeAssistantBlocks(blocks: JsonObject[], skipped?: SkippedRecords): AssistantPart[] {
  const parts: AssistantPart[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push({ type: "text", text: optionalString(block.text) ?? "" });
        break;
      case "thinking": {
        const signature = optionalString(block.signature);
        const thinking = optionalString(block.thinking) ?? "";
        parts.push(signature === undefined ? { type: "thinking", thinking } : { type: "thinking", thinking, signature });
        break;
      }
      case "redacted_thinking":
        parts.push({ type: "thinking", thinking: "", redactedData: optionalString(block.data) ?? "" });
        break;
      case "tool_use": {
        const input = block.input ?? {};
        parts.push({ type: "tool_call", id: optionalString(block.id) ?? "", name: optionalString(block.name) ?? "", argumentsText: JSON.stringify(input), arguments: input });
        break;
      }
      default:
        skipped?.add(optionalString(block.type) ?? "untyped block");
    }
  }
  return parts;
}
