import type { Summarizer } from "../../../context/compression/summarizer.js";
import type { ContextPolicy } from "../../../context/context-policy.js";
import type { TokenCounter } from "../../../tokens/index.js";
import type { Message, ToolMessage } from "../../../types/index.js";
import { harnessMessage, summarizeForComparator, summaryTokens } from "./comparator-summary.js";

export interface CodexOptions {
  contextWindow: number;
  counter: TokenCounter;
  summarizer: Summarizer;
}

// Codex CLI's rules (openai/codex at 0100b103: codex-rs/core/src/compact.rs; the limit is
// auto_compact_token_limit, by default context_window * 9 / 10, codex-rs/protocol/src/openai_models.rs;
// output truncation codex-rs/core/src/truncate.rs): before a turn whose last usage reached the limit, compaction runs
// inline — the same client and history with the compaction prompt appended as a user message, so
// the provider's prefix cache serves the history — and the new history is the user's messages
// (newest first, at most 20k tokens, the last one cut to fit) followed by the summary, prefixed
// with SUMMARY_PREFIX. A tool output is truncated once, when recorded, to 10k tokens (head and
// tail). After three compactions in a row that leave the context over the limit it gives up.
export const AUTO_COMPACT_SHARE = 0.9;
export const USER_MESSAGE_MAX_TOKENS = 20_000;
export const TOOL_OUTPUT_MAX_TOKENS = 10_000;
const MAX_FAILED_COMPACTIONS = 3;
/** templates/compact/summary_prefix.md, in substance: a handoff note for the model that continues. */
export const summaryPrefix = "Another language model started to solve this problem and produced a summary of its thinking process. Use it to continue the work:";

/**
 * Codex-like: write-time truncation of tool output to 10k tokens; in-band auto-compaction at 90% of
 * the window (or after the provider refused the request as too long) that keeps only the user's
 * messages and the summary. The summary comes from the replay's shared `Summarizer`, asked in-band.
 */
export function createCodexPolicy(options: CodexOptions): ContextPolicy {
  const limit = options.contextWindow * AUTO_COMPACT_SHARE;
  const own = new Set<string>();
  let previousSummary: string | undefined;
  let failures = 0;
  return {
    name: "codex",
    // A comparator replays one recorded agent; it has no children.
    inherit: "never",
    processToolResult: (result) => truncateToolOutput(result, options.counter),
    async prepareContext(state) {
      const lastTokens = state.lastUsage === undefined ? 0 : state.lastUsage.inputTokens + state.lastUsage.outputTokens;
      if (!state.overflow && lastTokens < limit) {
        failures = 0;
        return undefined;
      }
      if (failures >= MAX_FAILED_COMPACTIONS || state.messages.length === 0) return undefined;
      const summary = await summarizeForComparator({
        messages: state.messages,
        summarizer: options.summarizer,
        ownMessageIds: own,
        ...(previousSummary ? { previousSummary } : {}),
        maxTokens: summaryTokens(options.contextWindow),
        signal: state.signal,
        inBand: { prefix: state.prefix, messages: state.messages },
      });
      previousSummary = summary;
      const createdAt = state.now.toISOString();
      const kept = keptUserMessages(state.messages, own, options.counter);
      const summaryMessage = harnessMessage(`${summaryPrefix}\n${summary}`, `codex-summary-${state.iteration}`, createdAt);
      own.add(summaryMessage.meta.id);
      const messages: Message[] = [...kept, summaryMessage];
      const after = messages.reduce((sum, message) => sum + options.counter.count(message.role === "user" ? message.content : ""), 0);
      failures = after >= limit ? failures + 1 : 0;
      return [{ type: "replace", start: 0, end: state.messages.length, messages, reason: `codex auto-compact (${state.overflow ? "overflow" : `${lastTokens} ≥ ${Math.round(limit)} tokens`})` }];
    },
  };
}

/** The user's own messages (not summaries), newest first within 20k tokens, in their order; the oldest kept one cut to fit. */
export function keptUserMessages(messages: readonly Message[], own: ReadonlySet<string>, counter: TokenCounter): Message[] {
  let remaining = USER_MESSAGE_MAX_TOKENS;
  const kept: Message[] = [];
  for (let index = messages.length - 1; index >= 0 && remaining > 0; index--) {
    const message = messages[index]!;
    if (message.role !== "user" || message.meta.origin === "harness" || own.has(message.meta.id)) continue;
    const tokens = counter.count(message.content);
    if (tokens <= remaining) {
      kept.unshift(message);
      remaining -= tokens;
      continue;
    }
    const content = truncateMiddle(message.content, remaining, counter);
    kept.unshift({ ...message, content, meta: { ...message.meta, id: `${message.meta.id}:truncated` } });
    break;
  }
  return kept;
}

/** Codex's `truncate_text` with a token policy: the head and the tail, and how much went between. */
export function truncateToolOutput(result: ToolMessage, counter: TokenCounter): ToolMessage {
  if (counter.count(result.content) <= TOOL_OUTPUT_MAX_TOKENS) return result;
  return { ...result, content: truncateMiddle(result.content, TOOL_OUTPUT_MAX_TOKENS, counter) };
}

function truncateMiddle(text: string, maxTokens: number, counter: TokenCounter): string {
  const tokens = counter.count(text);
  if (tokens <= maxTokens) return text;
  const keepChars = Math.max(0, Math.floor((text.length * maxTokens) / tokens));
  const half = Math.floor(keepChars / 2);
  return `${text.slice(0, half)}…${tokens - maxTokens} tokens truncated…${text.slice(text.length - half)}`;
}
