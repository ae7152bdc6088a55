import type { Summarizer } from "../../../context/compression/summarizer.js";
import type { ContextPolicy } from "../../../context/context-policy.js";
import type { Message, ToolMessage } from "../../../types/index.js";
import { harnessMessage, summarizeForComparator, summaryTokens } from "./comparator-summary.js";

export interface OpencodeOptions {
  contextWindow: number;
  countMessage: (message: Message) => number;
  summarizer: Summarizer;
  /** The model's output limit (opencode reserves it twice, see `usableTokens`). Default 4096. */
  maxOutputTokens?: number;
}

// opencode's constants (sst/opencode at 31e22f65: packages/opencode/src/session/compaction.ts,
// overflow.ts; src/tool/truncation.ts): tool output is cut at write time at 2,000 lines or 50 KB
// (the whole output goes to a file); prune protects the newest 40k tokens of tool output and acts
// only when it frees more than 20k; compaction keeps a recent tail of
// min(15k, max(2k, usable / 4)) tokens. Used as opencode has them, in tokens, not scaled to the window.
export const MAX_LINES = 2_000;
export const MAX_BYTES = 50 * 1024;
export const PRUNE_PROTECT = 40_000;
export const PRUNE_MINIMUM = 20_000;
const COMPACTION_BUFFER = 20_000;
/** opencode's placeholder for a pruned output. */
export const clearedToolOutput = "[Old tool result content cleared]";

/** opencode's `usable()`: the window less the output limit and a reserve of min(20k, output limit). */
export function usableTokens(contextWindow: number, maxOutputTokens: number): number {
  return Math.max(0, contextWindow - maxOutputTokens - Math.min(COMPACTION_BUFFER, maxOutputTokens));
}

/**
 * opencode-like: write-time truncation; before each call, prune; and compaction when the previous
 * call's tokens (input + output) reached the usable window, or when the provider refused the
 * request as too long — the summary of everything before the recent tail, merged with the previous
 * summary, from the replay's shared `Summarizer`. (opencode also skips pruning in the newest two
 * user turns; a single-task run has one user turn, and at a 32k window 40k of output is never
 * exceeded anyway.)
 */
export function createOpencodePolicy(options: OpencodeOptions): ContextPolicy {
  const usable = usableTokens(options.contextWindow, options.maxOutputTokens ?? 4096);
  const tailTokens = Math.min(15_000, Math.max(2_000, Math.floor(usable * 0.25)));
  const own = new Set<string>();
  let previousSummary: string | undefined;
  return {
    name: "opencode",
    // A comparator replays one recorded agent; it has no children.
    inherit: "never",
    processToolResult: (result) => truncateOutput(result),
    async prepareContext(state) {
      const lastTokens = state.lastUsage === undefined ? 0 : state.lastUsage.inputTokens + state.lastUsage.outputTokens;
      if (!state.overflow && lastTokens < usable) {
        const pruned = pruneIndices(state.messages, options.countMessage, own);
        if (pruned.length === 0) return undefined;
        const start = pruned[0]!;
        const end = pruned.at(-1)! + 1;
        const selected = new Set(pruned);
        const messages = state.messages.slice(start, end).map((message, offset) => (selected.has(start + offset) ? clear(message as ToolMessage) : message));
        return [{ type: "replace", start, end, messages, reason: `opencode prune: ${pruned.length} old tool outputs` }];
      }
      const end = tailStart(state.messages, tailTokens, options.countMessage);
      if (end === 0) return undefined;
      const summary = await summarizeForComparator({
        messages: state.messages.slice(0, end),
        summarizer: options.summarizer,
        ownMessageIds: own,
        ...(previousSummary ? { previousSummary } : {}),
        maxTokens: summaryTokens(options.contextWindow),
        signal: state.signal,
      });
      previousSummary = summary;
      const message = harnessMessage(`What did we do so far?\n\n${summary}`, `oc-summary-${state.iteration}`, state.now.toISOString());
      own.add(message.meta.id);
      return [{ type: "replace", start: 0, end, messages: [message], reason: `opencode compaction (${state.overflow ? "overflow" : `${lastTokens} ≥ ${usable} usable tokens`})` }];
    },
  };
}

/** opencode's `Truncate.output`: the head, up to 2,000 lines and 50 KB, and where the rest went. */
export function truncateOutput(result: ToolMessage): ToolMessage {
  const lines = result.content.split("\n");
  if (lines.length <= MAX_LINES && Buffer.byteLength(result.content, "utf8") <= MAX_BYTES) return result;
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line, "utf8") + 1;
    if (kept.length >= MAX_LINES || bytes + size > MAX_BYTES) break;
    kept.push(line);
    bytes += size;
  }
  const content =
    `${kept.join("\n")}\n\n...${lines.length - kept.length} lines truncated...\n\n` +
    `The tool call succeeded but the output was truncated. Full output saved to: tool-output/${result.meta.id}\n` +
    "Use grep to search the full content or read with offset/limit to view specific sections.";
  return { ...result, content };
}

/** Tool outputs to clear (ascending): older than the newest 40k tokens of output, if over 20k in all. */
export function pruneIndices(messages: readonly Message[], countMessage: (message: Message) => number, own: ReadonlySet<string>): number[] {
  let total = 0;
  let pruned = 0;
  const indices: number[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (own.has(message.meta.id)) break; // a summary: nothing before it is sent
    if (message.role !== "tool") continue;
    if (message.content === clearedToolOutput) break;
    const tokens = countMessage(message);
    total += tokens;
    if (total <= PRUNE_PROTECT) continue;
    pruned += tokens;
    indices.unshift(index);
  }
  return pruned > PRUNE_MINIMUM ? indices : [];
}

/** Where the kept tail starts: the newest messages within `budget` tokens, never at a tool result. */
export function tailStart(messages: readonly Message[], budget: number, countMessage: (message: Message) => number): number {
  let start = messages.length;
  let tokens = 0;
  while (start > 0 && tokens + countMessage(messages[start - 1]!) <= budget) tokens += countMessage(messages[--start]!);
  while (start < messages.length && messages[start]!.role === "tool") start++;
  return start;
}

function clear(message: ToolMessage): ToolMessage {
  return { ...message, content: clearedToolOutput, meta: { ...message.meta, id: `${message.meta.id}:cleared` } };
}
