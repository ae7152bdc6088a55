import type { Message } from "../../types/index.js";
import type { StablePrefix } from "../stable-prefix.js";
import type { ExternalTag } from "./tagged-lines.js";

/** One piece of text to summarise, with where it came from. */
export interface SummarySource {
  /** What produced it, for the summary's own references: `read_file {"path":"a.ts"}`, `turn 4`. */
  label: string;
  /** Who produced it; compaction sorts facts into sections by this. */
  kind: "user" | "assistant" | "tool" | "summary";
  text: string;
  /** A URL or path every fact from this source can be cited to. */
  citation?: string;
  /** The tool call failed: its error message must survive. */
  isError?: boolean;
  /** The message it came from, so a summary can point back to it (recall by message id). */
  messageId?: string;
  /** The tags of its results the source tags wrapped (from their metadata): lines quoted from them keep them. */
  external?: ExternalTag[];
}

/**
 * What to summarise and how. `purpose` picks the form: one tool result, several together, older
 * turns as one line each (git-log style), or a full compaction with sections.
 */
export interface SummaryInput {
  purpose: "tool-result" | "tool-results" | "turns" | "compaction";
  sources: SummarySource[];
  /** The user's task; guides what to keep (context-aware strategies, compaction). */
  task?: string;
  /** The call that produced the content (the seed's "Given the search query: {query}"). */
  query?: string;
  /** What is already known; facts already there are not repeated (the seed's "Current context"). */
  known?: string;
  /** The previous compaction summary, to merge with rather than replace. */
  previousSummary?: string;
  /**
   * The nonces of the tags `previousSummary` was written with (its `derived.tagNonces`): the blocks
   * of a tagged result a model summary's check appended to it. The deterministic summariser leaves
   * them out of its sections. Absent for a summary written before they were recorded.
   */
  previousSummaryTagNonces?: readonly string[];
  /** Every fact keeps its source (URL or path) as a citation. */
  citations?: boolean;
  /** Aim for at most this many tokens. */
  maxTokens: number;
  /**
   * Ask in-band: the conversation as last sent (prefix and messages), to which a model summariser
   * appends its instruction instead of sending the sources in a prompt of its own, so the
   * provider's prefix cache serves everything but the instruction (what Codex and opencode's
   * suffix mode do). The sources must be part of `messages`.
   */
  inBand?: { prefix: StablePrefix; messages: readonly Message[] };
}

/**
 * Turns content into a shorter text. Implementations may throw (a model call failed); callers fall
 * back to the deterministic summariser, so compression never depends on a model being reachable.
 */
export interface Summarizer {
  readonly name: string;
  summarize(input: SummaryInput, signal?: AbortSignal): Promise<string>;
}
