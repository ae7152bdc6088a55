import type { HfChatMessage } from "./hf-chat-message.js";

/**
 * A place where Qwen3's chat template renders an earlier turn differently in the next request, so the
 * previous prompt is no longer a prefix of the next one and a prefix cache (vLLM, llama.cpp) stops
 * there.
 * - `reasoning_dropped`: the template shows `<think>` content only for assistant turns after the last
 *   real user query; a new user message hides the reasoning of every turn before it.
 * - `empty_think_dropped`: the turn was generated after an empty `<think>\n\n</think>\n\n` (the
 *   generation prompt with `enable_thinking=false`, or a trailing assistant message), but once it is
 *   history the template renders it without that block.
 */
export interface Qwen3PrefixHazard {
  kind: "reasoning_dropped" | "empty_think_dropped";
  /** Index of the assistant message (in both lists) whose rendering changes. */
  messageIndex: number;
  detail: string;
}

export interface Qwen3PrefixHazardOptions {
  /** Whether the previous request was rendered with the generation prompt (servers do). Default true. */
  addGenerationPrompt?: boolean;
  enableThinking?: boolean;
}

/**
 * Names the Qwen3 prefix breaks between two consecutive requests, where `next` continues `previous`
 * (the reply and later messages appended). Pure: it applies the template's rules without rendering,
 * in message order, so the first hazard is where the cached prefix ends.
 */
export function qwen3PrefixHazards(
  previous: readonly HfChatMessage[],
  next: readonly HfChatMessage[],
  options: Qwen3PrefixHazardOptions = {},
): Qwen3PrefixHazard[] {
  const hazards: Qwen3PrefixHazard[] = [];
  const previousQuery = lastQueryIndex(previous);
  const nextQuery = lastQueryIndex(next);
  for (let index = 0; index < previous.length && index < next.length; index += 1) {
    const message = previous[index];
    if (message?.role !== "assistant") continue;
    const wasWrapped = rendersThink(message, index, previous.length, previousQuery);
    if (!wasWrapped || rendersThink(message, index, next.length, nextQuery)) continue;
    const hasReasoning = reasoningOf(message) !== "";
    hazards.push({
      kind: hasReasoning ? "reasoning_dropped" : "empty_think_dropped",
      messageIndex: index,
      detail: hasReasoning
        ? `The reasoning of assistant message ${index} is no longer rendered: a user query after it (index ${nextQuery}) hides it.`
        : `Assistant message ${index} was the last message, rendered inside an empty <think></think> block; as history it is rendered without it.`,
    });
  }
  const reply = next[previous.length];
  const generationPromptHadEmptyThink = (options.addGenerationPrompt ?? true) && options.enableThinking === false;
  if (generationPromptHadEmptyThink && reply?.role === "assistant") {
    const index = previous.length;
    if (!rendersThink(reply, index, next.length, nextQuery)) {
      hazards.push({
        kind: "empty_think_dropped",
        messageIndex: index,
        detail:
          `Assistant message ${index} was generated after "<think>\\n\\n</think>\\n\\n" (enable_thinking=false); ` +
          "as history the template renders it without that block.",
      });
    }
  }
  return hazards;
}

/** The template's `ns.last_query_index`: the last user message that is not a wrapped tool response. */
export function lastQueryIndex(messages: readonly HfChatMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== "user") continue;
    const isToolResponse = message.content.startsWith("<tool_response>") && message.content.endsWith("</tool_response>");
    if (!isToolResponse) return index;
  }
  return messages.length - 1;
}

function rendersThink(message: HfChatMessage, index: number, length: number, queryIndex: number): boolean {
  if (index <= queryIndex) return false;
  return index === length - 1 || reasoningOf(message) !== "";
}

/** `reasoning_content`, or the text before `</think>` in the content, as the template extracts it. */
function reasoningOf(message: HfChatMessage): string {
  if (message.role !== "assistant") return "";
  if (message.reasoning_content !== undefined) return message.reasoning_content;
  if (!message.content.includes("</think>")) return "";
  const beforeEnd = message.content.split("</think>")[0] ?? "";
  return (beforeEnd.replace(/\n+$/, "").split("<think>").at(-1) ?? "").replace(/^\n+/, "");
}
