import type { AssistantPart, Message, MessageOrigin } from "../../types/index.js";
import { describeJsonType, isRecord, optionalString, parseArguments, type JsonObject } from "./json-guards.js";

export interface OpenAIMessageContext {
  id: string;
  /** ISO time when the format records one, else "". */
  createdAt: string;
  /** tool_call id → tool name, filled as assistant messages are converted (tool messages may omit `name`). */
  toolNames: Map<string, string>;
}

export type ConvertedMessage = { ok: true; message: Message } | { ok: false; reason: string };

/**
 * Converts one OpenAI Chat Completions message into the internal model. `system` and `developer`
 * become system messages (the caller decides whether the first one is the system prompt).
 * `path` names the message in problem reasons, e.g. `messages[3]`.
 */
export function convertOpenAIMessage(raw: unknown, context: OpenAIMessageContext, path: string): ConvertedMessage {
  if (!isRecord(raw)) return fail(`${path}: expected a message object, got ${describeJsonType(raw)}`);
  const meta = (origin: MessageOrigin) => ({ id: context.id, origin, createdAt: context.createdAt });
  switch (raw.role) {
    case "system":
    case "developer":
      return ok({ role: "system", content: openAIContentText(raw.content), meta: meta("harness") });
    case "user":
      return ok({ role: "user", content: openAIContentText(raw.content), meta: meta("user") });
    case "assistant": {
      const parts = convertAssistantParts(raw, context.toolNames, path);
      if (typeof parts === "string") return fail(parts);
      return ok({ role: "assistant", content: parts, meta: meta("model") });
    }
    case "tool": {
      const toolCallId = optionalString(raw.tool_call_id);
      if (toolCallId === undefined) return fail(`${path}.tool_call_id: expected a string, got ${describeJsonType(raw.tool_call_id)}`);
      const toolName = optionalString(raw.name) ?? context.toolNames.get(toolCallId) ?? "";
      const content = openAIContentText(raw.content);
      return ok({ role: "tool", toolCallId, toolName, content, isError: false, meta: meta("tool") });
    }
    default:
      return fail(`${path}.role: expected "system", "developer", "user", "assistant" or "tool", got ${JSON.stringify(raw.role) ?? "nothing"}`);
  }
}

/** Text of a string or content-part array; non-text parts become a placeholder so their position shows. */
export function openAIContentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      if (!isRecord(part)) return "";
      if (typeof part.text === "string") return part.text;
      return `[${typeof part.type === "string" ? part.type : "content"}]`;
    })
    .join("");
}

function convertAssistantParts(raw: JsonObject, toolNames: Map<string, string>, path: string): AssistantPart[] | string {
  const parts: AssistantPart[] = [];
  // DeepSeek, Qwen and vLLM return `reasoning_content`; OpenRouter returns `reasoning` plus
  // `reasoning_details`, whose encrypted entry must be sent back for Gemini and OpenAI models.
  const reasoning = optionalString(raw.reasoning_content) ?? optionalString(raw.reasoning);
  if (reasoning !== undefined && reasoning !== "") {
    const signature = encryptedReasoning(raw.reasoning_details);
    parts.push(signature === undefined ? { type: "thinking", thinking: reasoning } : { type: "thinking", thinking: reasoning, signature });
  }
  const text = openAIContentText(raw.content);
  if (text !== "") parts.push({ type: "text", text });
  const toolCalls = raw.tool_calls ?? [];
  if (!Array.isArray(toolCalls)) return `${path}.tool_calls: expected an array, got ${describeJsonType(toolCalls)}`;
  for (const [index, call] of toolCalls.entries()) {
    const callPath = `${path}.tool_calls[${index}]`;
    if (!isRecord(call) || !isRecord(call.function)) return `${callPath}: expected {id, function: {name, arguments}}`;
    const id = optionalString(call.id);
    const name = optionalString(call.function.name);
    if (id === undefined || name === undefined) return `${callPath}: expected string id and function.name`;
    const args = call.function.arguments;
    const argumentsText = typeof args === "string" ? args : JSON.stringify(args ?? {});
    toolNames.set(id, name);
    parts.push({ type: "tool_call", id, name, argumentsText, arguments: parseArguments(argumentsText) });
  }
  return parts;
}

function encryptedReasoning(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (isRecord(detail) && detail.type === "reasoning.encrypted" && typeof detail.data === "string") return detail.data;
  }
  return undefined;
}

function ok(message: Message): ConvertedMessage {
  return { ok: true, message };
}

function fail(reason: string): ConvertedMessage {
  return { ok: false, reason };
}
