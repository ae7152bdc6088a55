import type { ImportedTranscript, ReportedUsage, TranscriptFormat } from "../../inspect/index.js";
import type { AssistantMessage, Message, SystemPrompt, ToolDefinition } from "../../types/index.js";
import { bashToolDefinition, convertMiniSweAgentCommands } from "./convert-mini-swe-agent-commands.js";

/** One recorded model call: where its answer sits in the conversation, and what the provider reported. */
export interface RecordedCall {
  /** Index of the call's assistant message in `messages`. */
  index: number;
  reportedUsage?: ReportedUsage;
}

/**
 * A recorded run as replay walks it: one conversation in order (what the agent kept in its
 * history, the task first) in which every assistant message is a recorded model call.
 */
export interface RecordedRun {
  id: string;
  file: string;
  format: TranscriptFormat;
  system: SystemPrompt;
  tools: ToolDefinition[];
  messages: Message[];
  calls: RecordedCall[];
  /** Set when the recording stopped being one growing conversation; later calls are not replayed. */
  truncated?: string;
}

/**
 * Rebuilds the final conversation from a transcript's calls: each call's request must extend the
 * previous request with that call's answer (the history version of it, without reasoning the agent
 * dropped) and the new inputs. A recording that compacted or switched threads stops there — replay
 * needs the uncompressed run to apply its own policy to.
 */
export function toRecordedRun(transcript: ImportedTranscript): RecordedRun {
  const calls = transcript.calls.filter((call) => call.response !== undefined);
  const first = calls[0];
  const messages: Message[] = [];
  const recordedCalls: RecordedCall[] = [];
  let truncated: string | undefined;
  let previous: readonly Message[] = [];
  for (const [number, call] of calls.entries()) {
    const request = call.request.messages;
    if (number === 0) messages.push(...request);
    else {
      const history = request[previous.length];
      if (!extendsPrevious(previous, request) || history?.role !== "assistant") {
        truncated = `call ${number + 1} does not extend call ${number} (a compaction or another thread in the recording)`;
        break;
      }
      messages[recordedCalls[number - 1]!.index] = history;
      messages.push(...request.slice(previous.length + 1));
    }
    recordedCalls.push({ index: messages.length, ...(call.reportedUsage ? { reportedUsage: call.reportedUsage } : {}) });
    messages.push(call.response as AssistantMessage);
    previous = request;
  }
  const isMiniSweAgent = transcript.format === "mini-swe-agent";
  const run: RecordedRun = {
    id: transcript.id,
    file: transcript.file,
    format: transcript.format,
    system: first?.request.system ?? { staticText: "" },
    tools: [...(first?.request.tools ?? []), ...(isMiniSweAgent ? [bashToolDefinition] : [])],
    messages: isMiniSweAgent ? convertMiniSweAgentCommands(messages) : messages,
    calls: recordedCalls,
  };
  if (truncated !== undefined) run.truncated = truncated;
  return run;
}

/** Same messages (by id, which importers keep stable across calls) at the start of `next`. */
function extendsPrevious(previous: readonly Message[], next: readonly Message[]): boolean {
  if (next.length <= previous.length) return false;
  return previous.every((message, index) => next[index]!.meta.id === message.meta.id && next[index]!.role === message.role);
}
