import type { AssistantPart, Message, MessageMeta } from "../../types/index.js";
import { isRecord, optionalString, parseArguments, type JsonObject } from "./json-guards.js";

/** What one Codex `ResponseItem` is in the internal model. */
export type CodexItem =
  | { kind: "output"; parts: AssistantPart[] }
  | { kind: "input"; message: Message }
  | { kind: "skipped"; type: string }
  | { kind: "invalid"; reason: string };

// Codex sends its own context (environment, AGENTS.md, shell commands the user ran) as user-role items.
const harnessUserPrefixes = ["<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<user_shell_command>", "<turn_aborted>"];

/**
 * Converts a rollout `response_item` payload (codex-rs/protocol `ResponseItem`). Model output
 * (assistant text, reasoning, function/custom/local-shell calls) becomes assistant parts; input
 * (user/developer messages, tool outputs) becomes a message with `meta`. Items with no internal
 * equivalent (web search, image generation, encrypted compaction, ghost snapshots) are skipped.
 */
export function convertCodexResponseItem(item: JsonObject, meta: MessageMeta, toolNames: Map<string, string>): CodexItem {
  switch (item.type) {
    case "message":
      return convertMessage(item, meta);
    case "reasoning": {
      const text = textsOf(item.content, "\n") || textsOf(item.summary, "\n");
      const signature = optionalString(item.encrypted_content);
      return output(signature === undefined ? { type: "thinking", thinking: text } : { type: "thinking", thinking: text, signature });
    }
    case "function_call":
    case "custom_tool_call": {
      const id = optionalString(item.call_id);
      const name = optionalString(item.name);
      const argumentsText = item.type === "function_call" ? optionalString(item.arguments) : optionalString(item.input);
      if (id === undefined || name === undefined || argumentsText === undefined) {
        return invalid(`${item.type}: expected string call_id, name and ${item.type === "function_call" ? "arguments" : "input"}`);
      }
      toolNames.set(id, name);
      return output({ type: "tool_call", id, name, argumentsText, arguments: parseArguments(argumentsText) });
    }
    case "local_shell_call": {
      const id = optionalString(item.call_id) ?? optionalString(item.id);
      if (id === undefined || !isRecord(item.action)) return invalid("local_shell_call: expected call_id and action");
      toolNames.set(id, "local_shell");
      return output({ type: "tool_call", id, name: "local_shell", argumentsText: JSON.stringify(item.action), arguments: item.action });
    }
    case "function_call_output":
    case "custom_tool_call_output": {
      const toolCallId = optionalString(item.call_id);
      if (toolCallId === undefined) return invalid(`${item.type}: expected a string call_id`);
      const { content, isError } = outputOf(item.output);
      const toolName = toolNames.get(toolCallId) ?? optionalString(item.name) ?? "";
      return { kind: "input", message: { role: "tool", toolCallId, toolName, content, isError, meta: { ...meta, origin: "tool" } } };
    }
    default:
      return { kind: "skipped", type: optionalString(item.type) ?? "unknown" };
  }
}

function convertMessage(item: JsonObject, meta: MessageMeta): CodexItem {
  const text = textsOf(item.content, "\n");
  switch (item.role) {
    case "assistant":
      return output({ type: "text", text });
    case "user": {
      const origin = harnessUserPrefixes.some((prefix) => text.trimStart().startsWith(prefix)) ? "harness" : "user";
      return { kind: "input", message: { role: "user", content: text, meta: { ...meta, origin } } };
    }
    case "developer":
    case "system":
      return { kind: "input", message: { role: "system", content: text, meta: { ...meta, origin: "harness" } } };
    default:
      return invalid(`message: expected role "user", "assistant", "developer" or "system", got ${JSON.stringify(item.role) ?? "nothing"}`);
  }
}

/**
 * `FunctionCallOutputPayload` is a plain string in most rollouts; newer ones may hold
 * `{content, success}` or a list of content items.
 */
function outputOf(output: unknown): { content: string; isError: boolean } {
  if (typeof output === "string") return { content: output, isError: false };
  if (Array.isArray(output)) return { content: textsOf(output), isError: false };
  if (isRecord(output)) {
    const content = typeof output.content === "string" ? output.content : textsOf(output.content_items ?? output.content);
    return { content, isError: output.success === false };
  }
  return { content: "", isError: false };
}

/** Joins the `text` of content items (input_text, output_text, summary_text, reasoning_text); images leave a placeholder. */
function textsOf(items: unknown, separator = ""): string {
  if (!Array.isArray(items)) return "";
  return items
    .map((entry) => (isRecord(entry) ? (optionalString(entry.text) ?? `[${optionalString(entry.type) ?? "content"}]`) : ""))
    .join(separator);
}

function output(part: AssistantPart): CodexItem {
  return { kind: "output", parts: [part] };
}

function invalid(reason: string): CodexItem {
  return { kind: "invalid", reason };
}
