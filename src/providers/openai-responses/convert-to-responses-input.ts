import type { AssistantMessage, Message, SystemPrompt, ToolDefinition, UserMessage } from "../../types/index.js";
import { safeParseJson } from "../shared/canonical-json.js";

export interface ResponsesInput {
  /** The system prompt as `instructions` (the session part after a blank line), or undefined when empty. */
  instructions?: string;
  /** The trajectory as Responses input items, each the exact JSON text sent. */
  prefix: string[];
  /** The status-bar message, sent last and never cached. */
  tail?: string;
}

/**
 * Translates the internal messages into Responses input items. Items the API produced and verifies
 * — reasoning items with their `encrypted_content`, compaction items, tool-search calls and outputs —
 * are stored as the JSON text of the item and written back as that text, never re-encoded: with
 * `store: false` the API keeps nothing, so these bytes are the model's only memory of its reasoning.
 */
export function convertToResponsesInput(system: SystemPrompt, messages: readonly Message[], tail: UserMessage | undefined, deferredTools: readonly ToolDefinition[] = []): ResponsesInput {
  const deferredNames = new Set(deferredTools.map((tool) => tool.name));
  const prefix: string[] = [];
  for (const message of messages) prefix.push(...convertMessage(message, deferredNames));
  const instructions = systemTextOf(system);
  return {
    ...(instructions === "" ? {} : { instructions }),
    prefix,
    ...(tail === undefined ? {} : { tail: userItem(tail.content) }),
  };
}

function systemTextOf(system: SystemPrompt): string {
  const sessionText = system.sessionText ?? "";
  if (sessionText === "") return system.staticText;
  if (system.staticText === "") return sessionText;
  return `${system.staticText}\n\n${sessionText}`;
}

function userItem(text: string): string {
  return JSON.stringify({ role: "user", content: text });
}

function convertMessage(message: Message, deferredNames: ReadonlySet<string>): string[] {
  switch (message.role) {
    case "system":
      // A system message inside the trajectory (a harness note written as system) is a developer message here.
      return [JSON.stringify({ role: "developer", content: message.content })];
    case "user":
      return [userItem(message.content)];
    case "assistant":
      return convertAssistant(message, deferredNames);
    case "tool":
      // The Responses API has no error flag on tool outputs; the text itself says what failed.
      return [JSON.stringify({ type: "function_call_output", call_id: message.toolCallId, output: message.content })];
  }
}

/**
 * One item per part, in the order the model produced them (reasoning, text, calls). Consecutive
 * text parts are one assistant message. A function call of a deferred tool carries the `namespace`
 * the API gave it ("namespace":"get_weather" for a top-level deferred function in OpenAI's recorded
 * tool-search stream), which is the tool's own name for ctxkit's flat deferred tools.
 */
function convertAssistant(message: AssistantMessage, deferredNames: ReadonlySet<string>): string[] {
  const items: string[] = [];
  let text = "";
  const flushText = () => {
    if (text !== "") items.push(JSON.stringify({ type: "message", role: "assistant", content: [{ type: "output_text", text }] }));
    text = "";
  };
  for (const part of message.content) {
    switch (part.type) {
      case "text":
        text += part.text;
        break;
      case "thinking":
        flushText();
        // Reasoning from another provider (no Responses item) is left out: the API cannot verify it.
        if (part.providerDetails !== undefined && isResponsesItem(part.providerDetails, "reasoning")) items.push(part.providerDetails);
        break;
      case "tool_call":
        flushText();
        items.push(
          JSON.stringify({
            type: "function_call",
            call_id: part.id,
            name: part.name,
            arguments: part.argumentsText,
            ...(deferredNames.has(part.name) ? { namespace: part.name } : {}),
          }),
        );
        break;
      case "provider_block":
        flushText();
        if (part.provider === "openai" && isResponsesItem(part.block)) items.push(part.block);
        break;
    }
  }
  flushText();
  return items;
}

/** Whether stored text is one Responses item (of the given type), so a damaged record is not sent. */
function isResponsesItem(text: string, type?: string): boolean {
  const parsed = safeParseJson(text);
  if (!parsed.success || parsed.value === null || typeof parsed.value !== "object" || Array.isArray(parsed.value)) return false;
  const itemType = (parsed.value as { type?: unknown }).type;
  return typeof itemType === "string" && (type === undefined || itemType === type);
}
