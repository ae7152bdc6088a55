import { groupIntoUnits } from "../../../context/compression/conversation-units.js";
import type { Summarizer, SummaryInput } from "../../../context/compression/summarizer.js";
import { unitToSource } from "../../../context/compression/unit-source.js";
import type { Message, UserMessage } from "../../../types/index.js";

export interface ComparatorSummaryInput {
  /** The messages the summary replaces. */
  messages: readonly Message[];
  summarizer: Summarizer;
  /** Ids of messages the comparator created itself (earlier summaries, re-read files): not sources. */
  ownMessageIds: ReadonlySet<string>;
  /** The latest earlier summary, merged into the new one as every production agent does. */
  previousSummary?: string;
  maxTokens: number;
  signal?: AbortSignal;
  /** Ask in-band (the conversation as last sent plus the instruction), as Codex does. */
  inBand?: SummaryInput["inBand"];
}

/**
 * A comparator's compaction summary, written by the same `Summarizer` that writes ctxkit's (the
 * replay passes one to every policy), from the same sources: one per conversation unit, the
 * task given apart. So the table compares when and what each policy summarises, not how well.
 */
export async function summarizeForComparator(input: ComparatorSummaryInput): Promise<string> {
  const { messages } = input;
  const taskIndex = messages.findIndex((message) => message.role === "user" && message.meta.origin !== "harness" && !input.ownMessageIds.has(message.meta.id));
  const task = taskIndex >= 0 ? messages[taskIndex] : undefined;
  const sources = groupIntoUnits(messages)
    .filter((unit) => unit.start !== taskIndex && !input.ownMessageIds.has(messages[unit.start]!.meta.id))
    .map((unit) => unitToSource(messages.slice(unit.start, unit.end), messages[unit.start]!.meta.id));
  return input.summarizer.summarize(
    {
      purpose: "compaction",
      sources,
      ...(task?.role === "user" ? { task: task.content } : {}),
      ...(input.previousSummary ? { previousSummary: input.previousSummary } : {}),
      maxTokens: input.maxTokens,
      ...(input.inBand ? { inBand: input.inBand } : {}),
    },
    input.signal,
  );
}

/** A harness-made user message (a summary, a re-read file). */
export function harnessMessage(content: string, id: string, createdAt: string): UserMessage {
  return { role: "user", content, meta: { id, origin: "harness", createdAt } };
}

/** The summary's size limit: a tenth of the window, at most 8k tokens (ctxkit's own compaction uses the same). */
export function summaryTokens(contextWindow: number): number {
  return Math.round(Math.min(8000, Math.max(500, contextWindow * 0.1)));
}

/**
 * Where a kept tail of about `budget` tokens starts, walking back from the newest message: the
 * first message at which the tail reaches the budget, moved forward past tool results (a tail never
 * starts with a result whose call it dropped). pi's and deepagents' cut points both work so.
 */
export function tailStartWithin(messages: readonly Message[], budget: number, countMessage: (message: Message) => number): number {
  let tokens = 0;
  let start = messages.length;
  while (start > 0) {
    tokens += countMessage(messages[start - 1]!);
    start -= 1;
    if (tokens >= budget) break;
  }
  while (start < messages.length && messages[start]!.role === "tool") start++;
  return start;
}
