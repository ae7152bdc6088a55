import type { Summarizer } from "../../../context/compression/summarizer.js";
import type { ContextPolicy } from "../../../context/context-policy.js";
import type { Message, ToolMessage } from "../../../types/index.js";
import { harnessMessage, summarizeForComparator, tailStartWithin } from "./comparator-summary.js";

export interface DeepagentsOptions {
  contextWindow: number;
  countMessage: (message: Message) => number;
  summarizer: Summarizer;
}

// deepagents' rules (langchain-ai/deepagents at 0216b9be: libs/deepagents/deepagents/middleware/
// summarization.py, the model-aware defaults trigger ("fraction", 0.85), keep ("fraction", 0.10);
// the base SummarizationMiddleware of langchain trims what it summarises to the newest 4,000 tokens,
// _DEFAULT_TRIM_TOKEN_LIMIT; middleware/filesystem.py: tool_token_limit_before_evict = 20,000 tokens
// at 4 characters a token, the result saved to /large_tool_results/<id> and replaced by a pointer
// with a head and tail sample, _message_eviction.py). The summary replaces everything before the
// kept tail, in a message that points to the offloaded history file.
export const TRIGGER_FRACTION = 0.85;
export const KEEP_FRACTION = 0.1;
export const TRIM_TOKENS_TO_SUMMARIZE = 4_000;
export const EVICT_CHARS = 20_000 * 4;
const SAMPLE_LINES = 5;

/** deepagents-like: eviction of results over 20k tokens at write time; a separate summary at 85% of the window keeping the newest 10%. */
export function createDeepagentsPolicy(options: DeepagentsOptions): ContextPolicy {
  const own = new Set<string>();
  return {
    name: "deepagents",
    // A comparator replays one recorded agent; it has no children.
    inherit: "never",
    processToolResult: (result) => evictLargeResult(result),
    async prepareContext(state) {
      const total = state.messages.reduce((sum, message) => sum + options.countMessage(message), 0);
      if (!state.overflow && total < options.contextWindow * TRIGGER_FRACTION) return undefined;
      const end = tailStartWithin(state.messages, options.contextWindow * KEEP_FRACTION, options.countMessage);
      if (end === 0) return undefined;
      const summarized = state.messages.slice(0, end);
      // The summariser sees only the newest 4,000 tokens of what it summarises (langchain's trim).
      const trimmedFrom = tailStartWithin(summarized, TRIM_TOKENS_TO_SUMMARIZE, options.countMessage);
      const summary = await summarizeForComparator({
        messages: summarized.slice(Math.min(trimmedFrom, summarized.length - 1)),
        summarizer: options.summarizer,
        ownMessageIds: own,
        maxTokens: Math.round(Math.min(TRIM_TOKENS_TO_SUMMARIZE, options.contextWindow * 0.1)),
        signal: state.signal,
      });
      const content =
        "You are in the middle of a conversation that has been summarized.\n\nThe full conversation history has been saved to /conversation_history/thread.md should you need to refer back to it for details.\n\n" +
        `A condensed summary follows:\n\n<summary>\n${summary}\n</summary>`;
      const message = harnessMessage(content, `da-summary-${state.iteration}`, state.now.toISOString());
      own.add(message.meta.id);
      return [{ type: "replace", start: 0, end, messages: [message], reason: `deepagents summarization (${state.overflow ? "overflow" : `${total} ≥ ${Math.round(options.contextWindow * TRIGGER_FRACTION)} tokens`})` }];
    },
  };
}

/** A result over 80,000 characters goes to a file; the context keeps a pointer and its first and last 5 lines. */
export function evictLargeResult(result: ToolMessage): ToolMessage {
  if (result.content.length <= EVICT_CHARS) return result;
  const lines = result.content.split("\n");
  const sample = lines.length <= SAMPLE_LINES * 2 ? lines.map((line) => line.slice(0, 1000)) : [...lines.slice(0, SAMPLE_LINES), `... [${lines.length - SAMPLE_LINES * 2} lines truncated] ...`, ...lines.slice(-SAMPLE_LINES)].map((line) => line.slice(0, 1000));
  const content =
    `Tool result too large, the result of this tool call ${result.toolCallId} was saved in the filesystem at this path: /large_tool_results/${result.toolCallId}\n` +
    "You can read the result from the filesystem by using the read_file tool, but make sure to only read part of the result at a time.\n\n" +
    `Here is a preview showing the head and tail of the result:\n\n${sample.join("\n")}`;
  return { ...result, content };
}
