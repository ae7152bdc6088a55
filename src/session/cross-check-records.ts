import { toolCallsOf, type Message, type Usage } from "../types/index.js";
import type { SessionWarning } from "./loaded-session.js";
import type { RequestRecord, RunEndRecord, UsageRecord } from "./session-records.js";

/**
 * What the records of one file say about each other, checked as they are read. Every record of a
 * file edited on disk can be valid on its own while the whole disagrees: the final answer removed
 * while `run_end` still says `final_answer`, a tool message removed from a compacted session, a
 * usage figure changed. Each disagreement becomes a `records_disagree` warning naming the line.
 *
 * - A request sends the whole context as it stands: its `messageCount` is the number of messages
 *   recorded (after context edits) before it.
 * - A request is only sent once every tool call in the context has its result.
 * - A run that ended with `final_answer` ends on an assistant message without tool calls.
 * - A run's `usage` is the sum of its requests' usage plus its sub-agents' part.
 */
export interface RecordCrossCheck {
  /** A message appended to the context at this line. */
  message(message: Message, line: number): void;
  /** The context after a context edit at this line. */
  edited(messages: readonly Message[], line: number): void;
  request(record: RequestRecord, line: number, contextLength: number): void;
  usage(record: UsageRecord): void;
  runStart(runId: string): void;
  runEnd(record: RunEndRecord, line: number): void;
  warnings(): SessionWarning[];
}

interface OpenCall {
  id: string;
  line: number;
}

const usageFields = ["inputTokens", "cachedInputTokens", "cacheWriteTokens", "outputTokens", "reasoningTokens"] as const;

/**
 * `version`: the file's format version. Files before version 3 were partly written by hand-made
 * fixtures and older writers whose record order is not pinned, so the message-count check starts at 3.
 */
export function createRecordCrossCheck(version: number): RecordCrossCheck {
  const found: SessionWarning[] = [];
  let pending: OpenCall[] = [];
  let last: { message: Message; line: number } | undefined;
  const messageLines = new Map<string, number>();
  // Usage of the requests sent during each open run (runs nest only as sub-agents, in other files).
  const runUsage = new Map<string, Usage>();
  const requestRun = new Map<number, string>();
  let openRun: string | undefined;

  const disagree = (line: number, message: string): void => {
    found.push({ code: "records_disagree", line, message: `Line ${line} disagrees with the rest of the file: ${message} The file was most likely edited; restore it from a copy, or check that line.` });
  };

  return {
    message(message, line) {
      messageLines.set(message.meta.id, line);
      last = { message, line };
      if (message.role === "assistant") pending = toolCallsOf(message).map((call) => ({ id: call.id, line }));
      else if (message.role === "tool") pending = pending.filter((call) => call.id !== message.toolCallId);
    },
    edited(messages, line) {
      const newest = messages.at(-1);
      last = newest === undefined ? undefined : { message: newest, line: messageLines.get(newest.meta.id) ?? line };
      pending = openCalls(messages, messageLines, line);
    },
    request(record, line, contextLength) {
      if (version >= 3 && record.messageCount !== contextLength) {
        disagree(line, `request ${record.index} says it sent ${record.messageCount} messages, but ${contextLength} are recorded before it (a message line was added or removed).`);
      }
      if (pending.length > 0) {
        const shown = pending.slice(0, 3).map((call) => `${call.id} (line ${call.line})`).join(", ");
        disagree(line, `request ${record.index} was sent while tool call${pending.length === 1 ? "" : "s"} ${shown} had no result recorded (a tool message line is missing).`);
        pending = [];
      }
      if (openRun !== undefined) requestRun.set(record.index, openRun);
    },
    usage(record) {
      const runId = requestRun.get(record.request);
      if (runId === undefined) return;
      const total = runUsage.get(runId);
      if (total !== undefined) for (const field of usageFields) total[field] += record.usage[field];
    },
    runStart(runId) {
      openRun = runId;
      runUsage.set(runId, { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 });
    },
    runEnd(record, line) {
      if (record.stopReason === "final_answer") {
        const message = last?.message;
        const endsOnAnswer = message?.role === "assistant" && toolCallsOf(message).length === 0;
        if (!endsOnAnswer) {
          const what = message === undefined ? "no message" : `a ${message.role} message (line ${last!.line})`;
          disagree(line, `run_end says the run ended with final_answer, but the last message before it is ${what}, not the answer (a message line is missing).`);
        }
      }
      if (pending.length > 0 && record.stopReason !== "aborted" && record.stopReason !== "error") {
        const shown = pending.slice(0, 3).map((call) => `${call.id} (line ${call.line})`).join(", ");
        disagree(line, `the run ended with tool call${pending.length === 1 ? "" : "s"} ${shown} left without a result (a tool message line is missing).`);
      }
      const counted = runUsage.get(record.runId);
      if (counted !== undefined) {
        const own = record.subAgentUsage;
        const differing = usageFields.filter((field) => counted[field] + (own?.[field] ?? 0) !== record.usage[field]);
        if (differing.length > 0) {
          const field = differing[0]!;
          disagree(line, `run_end says the run used ${record.usage[field]} ${field}, but its requests' usage records add up to ${counted[field] + (own?.[field] ?? 0)} (a usage line was changed, added or removed).`);
        }
      }
      runUsage.delete(record.runId);
      if (openRun === record.runId) openRun = undefined;
    },
    warnings: () => found,
  };
}

/** Tool calls of the context's last assistant message that no tool message after it answers. */
function openCalls(messages: readonly Message[], lines: ReadonlyMap<string, number>, fallbackLine: number): OpenCall[] {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role !== "assistant") continue;
    const answered = new Set(messages.slice(index + 1).flatMap((later) => (later.role === "tool" ? [later.toolCallId] : [])));
    const line = lines.get(message.meta.id) ?? fallbackLine;
    return toolCallsOf(message)
      .filter((call) => !answered.has(call.id))
      .map((call) => ({ id: call.id, line }));
  }
  return [];
}
