import type { ContextPolicy } from "../../../context/context-policy.js";
import type { StablePrefix } from "../../../context/stable-prefix.js";
import type { Message } from "../../../types/index.js";
import { summarizeDeterministically, summaryMessage } from "./deterministic-summary.js";

export interface CompactAtThresholdOptions {
  contextWindow: number;
  /** Tokens of the request the context would make (system, tools and these messages). */
  countTokens: (messages: readonly Message[], prefix: StablePrefix) => number;
  /**
   * Fraction of the window that triggers a compaction. Default 0.835: Claude Code compacts at
   * window − min(max output, 20k) − 13k, which is 83.5% of a 200k window.
   */
  trigger?: number;
  /** Newest messages kept verbatim after the summary. Default 4 (two tool turns). */
  keepMessages?: number;
  /** The summary's size limit, as a fraction of the window. Default 0.1. */
  summaryShare?: number;
}

// A conservative characters-per-token ratio for sizing the summary (code and logs run 3–4).
const charsPerToken = 3;

/**
 * Claude-Code-like full compaction: when the request would pass the trigger, everything older
 * than the newest few messages becomes one summary message (a declared cache break), and the run
 * goes on from there. The summary is deterministic (see `summarizeDeterministically`).
 */
export function createCompactAtThresholdPolicy(options: CompactAtThresholdOptions): ContextPolicy {
  const trigger = options.trigger ?? 0.835;
  const keepMessages = options.keepMessages ?? 4;
  const maxChars = Math.floor(options.contextWindow * (options.summaryShare ?? 0.1) * charsPerToken);
  return {
    name: "compact-at-83",
    prepareContext(state) {
      const tokens = options.countTokens(state.messages, state.prefix);
      if (tokens <= options.contextWindow * trigger) return undefined;
      const end = compactionEnd(state.messages, keepMessages);
      if (end === 0) return undefined;
      const text = summarizeDeterministically(state.messages.slice(0, end), maxChars);
      const summary = summaryMessage(text, `compaction-${state.iteration}`, state.now.toISOString());
      return [{ type: "replace", start: 0, end, messages: [summary], reason: `compaction at ${tokens} tokens (${Math.round(trigger * 1000) / 10}% of ${options.contextWindow})` }];
    },
  };
}

/** Where the kept tail starts: the newest `keep` messages, moved back so a tool result keeps its call. */
export function compactionEnd(messages: readonly Message[], keep: number): number {
  let end = Math.max(0, messages.length - keep);
  while (end > 0 && messages[end]?.role === "tool") end--;
  return end;
}
