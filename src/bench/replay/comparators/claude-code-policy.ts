import type { Summarizer } from "../../../context/compression/summarizer.js";
import type { ContextPolicy } from "../../../context/context-policy.js";
import type { StablePrefix } from "../../../context/stable-prefix.js";
import type { TokenCounter } from "../../../tokens/index.js";
import type { Message, ToolMessage } from "../../../types/index.js";
import { harnessMessage, summarizeForComparator, summaryTokens } from "./comparator-summary.js";
import { recentFileReads } from "./recent-file-reads.js";

export interface ClaudeCodeOptions {
  contextWindow: number;
  /** Tokens of the request the context would make (system, tools and these messages). */
  countTokens: (messages: readonly Message[], prefix: StablePrefix) => number;
  counter: TokenCounter;
  summarizer: Summarizer;
}

// Claude Code's constants, as read from its source by
// https://zhanghandong.github.io/harness-engineering-from-cc-to-ai-coding/en/part3/ch09.html and ch10.html
// and https://aaronmedina-dev.github.io/claude-code-leak/compaction.html:
// auto-compact at effective window (window − min(max output, 20k)) − 13k = 167k of 200k (83.5%);
// at 32k those absolute buffers would leave nothing, so the share is kept.
const TRIGGER_SHARE = 0.835;
// POST_COMPACT_MAX_FILES_TO_RESTORE, POST_COMPACT_MAX_TOKENS_PER_FILE, POST_COMPACT_TOKEN_BUDGET.
const FILES_TO_RESTORE = 5;
const TOKENS_PER_FILE = 5_000;
const RESTORE_BUDGET = 50_000;
// Tool results over 50k characters are persisted to disk at write time and shown as a 2 KB
// preview; the decision is frozen in the transcript so the prefix stays stable.
const SPILL_CHARS = 50_000;
const PREVIEW_CHARS = 2_000;

/**
 * Claude-Code-like: at write time, a result over 50k characters becomes a 2 KB preview. Before a
 * call whose request passes 83.5% of the window (or after the provider refused it as too long —
 * Claude Code's reactive compaction), the whole conversation becomes one summary (Claude Code
 * keeps no recent messages verbatim), followed by the newest reads of up to 5 recently read
 * files, 5k tokens each. Replay cannot read the disk, so "re-reading" a file gives back the newest
 * output the model saw of it. The summary comes from the replay's shared `Summarizer`.
 */
export function createClaudeCodePolicy(options: ClaudeCodeOptions): ContextPolicy {
  const own = new Set<string>();
  let previousSummary: string | undefined;
  return {
    name: "claude-code",
    // A comparator replays one recorded agent; it has no children.
    inherit: "never",
    processToolResult(result) {
      if (result.content.length <= SPILL_CHARS) return result;
      const preview = result.content.slice(0, PREVIEW_CHARS);
      const content = `<persisted-output>\nOutput too large (${result.content.length} characters). Full output saved to: tool-results/${result.meta.id}.txt\n\nPreview (first 2 KB):\n${preview}\n…\n</persisted-output>`;
      return { ...result, content } satisfies ToolMessage;
    },
    async prepareContext(state) {
      const tokens = options.countTokens(state.messages, state.prefix);
      if (!state.overflow && tokens <= options.contextWindow * TRIGGER_SHARE) return undefined;
      const end = state.messages.length;
      if (end === 0) return undefined;
      const createdAt = state.now.toISOString();
      const summary = await summarizeForComparator({
        messages: state.messages,
        summarizer: options.summarizer,
        ownMessageIds: own,
        ...(previousSummary ? { previousSummary } : {}),
        maxTokens: summaryTokens(options.contextWindow),
        signal: state.signal,
      });
      previousSummary = summary;
      const messages: Message[] = [
        harnessMessage(`This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n${summary}`, `cc-summary-${state.iteration}`, createdAt),
      ];
      // After a refusal for length, the files would make it too long again: summary only.
      if (!state.overflow) messages.push(...restoredFiles(state.messages, options.counter, state.iteration, createdAt));
      for (const message of messages) own.add(message.meta.id);
      return [{ type: "replace", start: 0, end, messages, reason: `claude-code compaction at ${tokens} tokens${state.overflow ? " (after an overflow)" : ""}` }];
    },
  };
}

function restoredFiles(messages: readonly Message[], counter: TokenCounter, iteration: number, createdAt: string): Message[] {
  let budget = RESTORE_BUDGET;
  const restored: Message[] = [];
  for (const [index, read] of recentFileReads(messages, FILES_TO_RESTORE).entries()) {
    const content = clipToTokens(read.content, Math.min(TOKENS_PER_FILE, budget), counter);
    budget -= counter.count(content);
    if (budget < 0) break;
    restored.push(harnessMessage(`Called the Read tool with the following input: {"file_path":"${read.path}"}\nResult of calling the Read tool:\n${content}`, `cc-file-${iteration}-${index}`, createdAt));
  }
  return restored;
}

/** The longest head of `text` within `maxTokens` (by proportion, then trimmed until it fits). */
function clipToTokens(text: string, maxTokens: number, counter: TokenCounter): string {
  let tokens = counter.count(text);
  if (tokens <= maxTokens) return text;
  let chars = Math.floor((text.length * maxTokens) / tokens);
  let clipped = text.slice(0, chars);
  while (chars > 0 && (tokens = counter.count(clipped)) > maxTokens) {
    chars = Math.floor(chars * 0.95);
    clipped = text.slice(0, chars);
  }
  return `${clipped}\n… (file truncated)`;
}
