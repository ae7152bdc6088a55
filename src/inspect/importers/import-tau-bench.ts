import type { Message } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportProblem, ImportResult } from "../imported-transcript.js";
import { convertOpenAIMessage } from "./convert-openai-message.js";
import { createImportedRequest } from "./create-imported-request.js";
import { describeJsonType, isRecord } from "./json-guards.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";

/**
 * Imports a τ-bench trajectory file `[{task_id, trial, reward, info, traj}]`: one transcript per
 * dialogue, `traj` an OpenAI message list whose first message is the system prompt (the policy).
 * Every assistant message is a call that saw everything before it. The file records neither the
 * tools (pass them with `--tools`) nor usage nor the model.
 */
export function importTauBench(text: string, file: string): ImportResult {
  let value: unknown;
  try {
    value = parseUntrustedJson(text);
  } catch (error) {
    return { transcripts: [], problems: [{ file, reason: `not valid JSON (${(error as Error).message})` }] };
  }
  if (!Array.isArray(value)) {
    return { transcripts: [], problems: [{ file, reason: `expected an array of {task_id, trial, traj}, got ${describeJsonType(value)}` }] };
  }
  const transcripts: ImportedTranscript[] = [];
  const problems: ImportProblem[] = [];
  for (const [index, entry] of value.entries()) {
    const converted = convertDialogue(entry, `[${index}]`, file);
    if (typeof converted === "string") problems.push({ file, reason: converted });
    else transcripts.push(converted);
  }
  return { transcripts, problems };
}

function convertDialogue(entry: unknown, path: string, file: string): ImportedTranscript | string {
  if (!isRecord(entry) || !Array.isArray(entry.traj)) return `${path}: expected {task_id, trial, traj: [...]}`;
  const taskId = entry.task_id;
  const trial = entry.trial;
  if ((typeof taskId !== "number" && typeof taskId !== "string") || typeof trial !== "number") {
    return `${path}: expected task_id (number or string) and trial (number)`;
  }
  const id = `task${taskId}-trial${trial}`;
  const toolNames = new Map<string, string>();
  const messages: Message[] = [];
  for (const [index, raw] of entry.traj.entries()) {
    const converted = convertOpenAIMessage(raw, { id: `${id}:${index}`, createdAt: "", toolNames }, `${path}.traj[${index}]`);
    if (!converted.ok) return converted.reason;
    const message = converted.message;
    // τ-bench tools signal failure in-band: their result string starts with "Error: ".
    if (message.role === "tool") message.isError = message.content.startsWith("Error: ");
    messages.push(message);
  }
  const [first, ...rest] = messages;
  const system = first?.role === "system" ? first.content : undefined;
  const conversation = system === undefined ? messages : rest;
  const calls: ImportedCall[] = [];
  for (const [index, message] of conversation.entries()) {
    if (message.role !== "assistant") continue;
    calls.push({
      request: createImportedRequest({ system: system ?? "", messages: conversation.slice(0, index) }),
      response: message,
      source: { file },
    });
  }
  const transcript: ImportedTranscript = {
    id,
    format: "tau-bench",
    file,
    calls,
    toolsKnown: false,
    systemKnown: system !== undefined,
    meta: { taskId, trial, reward: entry.reward },
  };
  // τ-bench's run.py records a run that raised as {info: {error, traceback}} with what traj it had
  // (often none): say why, or the run reads as an agent that never called the model.
  const error = isRecord(entry.info) && typeof entry.info.error === "string" ? entry.info.error : undefined;
  if (error !== undefined) transcript.notes = [`τ-bench recorded an error for this run, which ended it after ${calls.length} call(s): ${error.slice(0, 300)}`];
  return transcript;
}
