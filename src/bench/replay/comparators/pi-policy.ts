import type { Summarizer } from "../../../context/compression/summarizer.js";
import type { ContextPolicy } from "../../../context/context-policy.js";
import type { Message, ToolMessage } from "../../../types/index.js";
import { harnessMessage, summarizeForComparator, tailStartWithin } from "./comparator-summary.js";

export interface PiOptions {
  contextWindow: number;
  countMessage: (message: Message) => number;
  summarizer: Summarizer;
}

// pi's rules (badlogic/pi-mono at 04309178: packages/coding-agent/src/core/compaction/compaction.ts,
// DEFAULT_COMPACTION_SETTINGS, shouldCompact, findCutPoint, generateSummary; the bash tool's output
// limit, truncateTail in packages/coding-agent/src/core/tools/bash.ts): compact when the last call's context
// tokens exceed window − reserveTokens (16,384); keep the newest keepRecentTokens (20,000), cut at
// a user or assistant message, never at a tool result; summarise the rest in a call of its own
// (the conversation serialised into the prompt, merged with the previous summary), at most
// 0.8 × reserveTokens of output. Bash output keeps its last 2,000 lines or 50 KB.
export const RESERVE_TOKENS = 16_384;
export const KEEP_RECENT_TOKENS = 20_000;
export const MAX_LINES = 2_000;
export const MAX_BYTES = 50 * 1024;
// Those constants are absolute, for 128k–200k windows. Where they leave no room (reserve + kept
// tail over half the window: compaction would fire on every call and keep everything), they are
// used as the shares of a 128k window they are, as the claude-code comparator keeps its share.
const REFERENCE_WINDOW = 131_072;

/** pi's two budgets at this window: the reserve below the window, and the kept recent tail. */
export function piBudgets(contextWindow: number): { reserve: number; keep: number } {
  if (RESERVE_TOKENS + KEEP_RECENT_TOKENS <= contextWindow / 2) return { reserve: RESERVE_TOKENS, keep: KEEP_RECENT_TOKENS };
  const scale = contextWindow / REFERENCE_WINDOW;
  return { reserve: Math.round(RESERVE_TOKENS * scale), keep: Math.round(KEEP_RECENT_TOKENS * scale) };
}

/** pi-like: tail truncation of tool output at write time; a separate summary call past window − reserve, keeping the recent tail. */
export function createPiPolicy(options: PiOptions): ContextPolicy {
  const { reserve, keep } = piBudgets(options.contextWindow);
  const own = new Set<string>();
  let previousSummary: string | undefined;
  return {
    name: "pi",
    // A comparator replays one recorded agent; it has no children.
    inherit: "never",
    processToolResult: (result) => truncateTail(result),
    async prepareContext(state) {
      const contextTokens = state.lastUsage === undefined ? 0 : state.lastUsage.inputTokens + state.lastUsage.outputTokens;
      if (!state.overflow && contextTokens <= options.contextWindow - reserve) return undefined;
      // After a refusal for length the tail itself may be what does not fit: keep none of it.
      const end = state.overflow ? lastCutPoint(state.messages) : tailStartWithin(state.messages, keep, options.countMessage);
      if (end === 0) return undefined;
      const summary = await summarizeForComparator({
        messages: state.messages.slice(0, end),
        summarizer: options.summarizer,
        ownMessageIds: own,
        ...(previousSummary ? { previousSummary } : {}),
        maxTokens: Math.floor(0.8 * reserve),
        signal: state.signal,
      });
      previousSummary = summary;
      const message = harnessMessage(`The conversation history before this point was compacted into the following summary:\n\n<summary>\n${summary}\n</summary>`, `pi-summary-${state.iteration}`, state.now.toISOString());
      own.add(message.meta.id);
      return [{ type: "replace", start: 0, end, messages: [message], reason: `pi compaction (${state.overflow ? "overflow" : `${contextTokens} > ${options.contextWindow - reserve} tokens`})` }];
    },
  };
}

/** The newest message a cut may start at (a user or assistant message). */
function lastCutPoint(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index > 0; index--) if (messages[index]!.role !== "tool") return index;
  return 0;
}

/** pi's `truncateTail`: the last 2,000 lines or 50 KB, whichever is less, and a note of what was cut. */
export function truncateTail(result: ToolMessage): ToolMessage {
  const lines = result.content.split("\n");
  if (lines.length <= MAX_LINES && Buffer.byteLength(result.content, "utf8") <= MAX_BYTES) return result;
  const kept: string[] = [];
  let bytes = 0;
  for (let index = lines.length - 1; index >= 0; index--) {
    const size = Buffer.byteLength(lines[index]!, "utf8") + 1;
    if (kept.length >= MAX_LINES || bytes + size > MAX_BYTES) break;
    kept.unshift(lines[index]!);
    bytes += size;
  }
  const from = lines.length - kept.length + 1;
  return { ...result, content: `${kept.join("\n")}\n\n[Showing lines ${from}-${lines.length} of ${lines.length}. Full output: /tmp/pi-bash-${result.meta.id}.log]` };
}
