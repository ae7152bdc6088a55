import type { ContextPolicy } from "../../../context/context-policy.js";
import type { AssistantMessage, Message, ToolMessage } from "../../../types/index.js";

export interface AnthropicClearToolUsesOptions {
  contextWindow: number;
  countMessage: (message: Message) => number;
  /**
   * Whole-request tokens (system, tools and messages) that start clearing. Default: half the window
   * (the documented default, 100 000 input tokens, on a 200k window).
   */
  triggerTokens?: number;
  /** `keep`: the newest tool uses left as they are (Anthropic's default 3). */
  keepToolUses?: number;
  /** `clear_at_least`: clear nothing unless at least this many tokens go (default 0: the API's default). */
  clearAtLeastTokens?: number;
  /** `exclude_tools`: tools whose results are never cleared. */
  excludeTools?: readonly string[];
  /** `clear_tool_inputs`: clear the cleared results' tool calls' parameters too (default false, the API's). */
  clearToolInputs?: boolean;
  countRequest: (messages: readonly Message[]) => number;
}

/** The documented default `trigger` (100 000 input tokens) as a share of the 200k window it was set for. */
export const documentedTriggerShare = 100_000 / 200_000;

/** What the server puts in place of a cleared result (Anthropic's docs: "replaced with placeholder text"). */
export const clearedToolResult = "[tool result cleared by context editing]";
/** A cleared call's parameters: the docs say they are cleared and name no placeholder, so an empty input. */
export const clearedToolInput = "{}";

/**
 * Anthropic's `clear_tool_uses_20250919` as its documentation states the rules: when the prompt
 * passes `trigger` input tokens, the oldest tool results are replaced by a placeholder, all but the
 * newest `keep` tool uses, results of `exclude_tools` never, and only when at least `clear_at_least`
 * tokens go. The server does this on its side; the prompt the model sees (and the cache) changes
 * from the first cleared result on, which replay records as the declared break it is. The documented
 * default trigger is 100 000 input tokens on a 200k window; replay keeps that share of the window
 * (half), not the number, so the rule acts at the windows a replay tries.
 * With `clear_tool_inputs` ("you can optionally clear both tool results and tool calls (the tool use
 * parameters)") the cleared results' calls lose their parameters too, so the prompt changes from the
 * first such call — earlier than the first result.
 */
export function createAnthropicClearToolUsesPolicy(options: AnthropicClearToolUsesOptions): ContextPolicy {
  const trigger = options.triggerTokens ?? Math.round(options.contextWindow * documentedTriggerShare);
  const keep = options.keepToolUses ?? 3;
  const excluded = new Set(options.excludeTools ?? []);
  return {
    name: "anthropic-clear-tool-uses",
    // A replay comparator: children (which replay never runs) get nothing.
    inherit: "never",
    prepareContext(state) {
      const tokens = options.countRequest(state.messages);
      if (!state.overflow && tokens <= trigger) return undefined;
      const results = state.messages.flatMap((message, index) => (message.role === "tool" ? [index] : []));
      const clearable = results.slice(0, Math.max(0, results.length - keep)).filter((index) => {
        const message = state.messages[index] as ToolMessage;
        return !excluded.has(message.toolName) && message.content !== clearedToolResult;
      });
      if (clearable.length === 0) return undefined;
      const freed = clearable.reduce((sum, index) => sum + options.countMessage(state.messages[index]!), 0);
      if (freed < (options.clearAtLeastTokens ?? 0)) return undefined;
      const selected = new Set(clearable);
      const callIds = new Set(clearable.map((index) => (state.messages[index] as ToolMessage).toolCallId));
      const callers = options.clearToolInputs === true ? callMessages(state.messages, callIds) : [];
      const start = Math.min(clearable[0]!, ...callers);
      const end = clearable.at(-1)! + 1;
      const messages = state.messages.slice(start, end).map((message, offset) => {
        if (selected.has(start + offset)) return { ...(message as ToolMessage), content: clearedToolResult };
        if (message.role === "assistant" && callers.includes(start + offset)) return withoutInputs(message, callIds);
        return message;
      });
      const inputs = callers.length > 0 ? " and their calls' inputs" : "";
      return [{ type: "replace", start, end, messages, reason: `server-side clear_tool_uses_20250919 at ${tokens} tokens: ${clearable.length} tool results${inputs} cleared` }];
    },
  };
}

/** Indexes of the assistant messages that made the given calls. */
function callMessages(messages: readonly Message[], callIds: ReadonlySet<string>): number[] {
  return messages.flatMap((message, index) => (message.role === "assistant" && message.content.some((part) => part.type === "tool_call" && callIds.has(part.id)) ? [index] : []));
}

function withoutInputs(message: AssistantMessage, callIds: ReadonlySet<string>): AssistantMessage {
  return {
    ...message,
    content: message.content.map((part) => (part.type === "tool_call" && callIds.has(part.id) && part.argumentsText !== clearedToolInput ? { ...part, argumentsText: clearedToolInput, arguments: {} } : part)),
  };
}
