import type { Summarizer } from "../../../context/compression/summarizer.js";
import type { ContextPolicy } from "../../../context/context-policy.js";
import type { Message } from "../../../types/index.js";
import { harnessMessage, summarizeForComparator, summaryTokens } from "./comparator-summary.js";

export interface ServerCompactionOptions {
  /** `anthropic`: compact_20260112; `openai`: Responses `context_management` compaction. */
  vendor: "anthropic" | "openai";
  contextWindow: number;
  summarizer: Summarizer;
  countRequest: (messages: readonly Message[]) => number;
  /** `trigger` / `compact_threshold` in whole-request tokens. Default: 80% of the window. */
  thresholdTokens?: number;
}

/**
 * Server-side compaction as the two vendors document it. Past the threshold the server summarises
 * the conversation itself and the next request starts from that summary:
 * - Anthropic (`compact_20260112`): one `compaction` block with the summary; "the API drops all
 *   content before the compaction block", so nothing earlier is kept verbatim;
 * - OpenAI (`compaction`, and `/responses/compact`): the compacted window keeps the user's messages
 *   as they were and replaces everything else (assistant turns, tool calls and outputs) with one
 *   opaque compaction item.
 * The summary comes from the replay's shared `Summarizer` (the servers' own summaries are not
 * available offline), so the table compares when and what each strategy replaces.
 */
export function createServerCompactionPolicy(options: ServerCompactionOptions): ContextPolicy {
  const threshold = options.thresholdTokens ?? Math.round(options.contextWindow * 0.8);
  const own = new Set<string>();
  let previousSummary: string | undefined;
  const name = options.vendor === "anthropic" ? "anthropic-compaction" : "openai-compaction";
  return {
    name,
    // A replay comparator: children (which replay never runs) get nothing.
    inherit: "never",
    async prepareContext(state) {
      const tokens = options.countRequest(state.messages);
      if (!state.overflow && tokens <= threshold) return undefined;
      if (state.messages.length === 0) return undefined;
      const summary = await summarizeForComparator({
        messages: state.messages,
        summarizer: options.summarizer,
        ownMessageIds: own,
        ...(previousSummary ? { previousSummary } : {}),
        maxTokens: summaryTokens(options.contextWindow),
        signal: state.signal,
      });
      previousSummary = summary;
      const createdAt = state.now.toISOString();
      const compacted = harnessMessage(`<compaction>\n${summary}\n</compaction>`, `${name}-${state.iteration}`, createdAt);
      own.add(compacted.meta.id);
      const kept = options.vendor === "openai" ? state.messages.filter((message) => message.role === "user" && !own.has(message.meta.id)) : [];
      return [{ type: "replace", start: 0, end: state.messages.length, messages: [...kept, compacted], reason: `server-side ${name} at ${tokens} tokens` }];
    },
  };
}
