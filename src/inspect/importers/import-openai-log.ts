import { mapOpenAIFinishReason } from "../../providers/openai-compatible/map-openai-finish-reason.js";
import { toolCallsOf, type AssistantMessage, type Message } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportProblem, ImportResult, ReportedUsage } from "../imported-transcript.js";
import { convertOpenAIMessage } from "./convert-openai-message.js";
import { convertOpenAIReportedUsage } from "./convert-openai-reported-usage.js";
import { convertOpenAITools } from "./convert-openai-tools.js";
import { createImportedRequest } from "./create-imported-request.js";
import { isRecord, optionalString, type JsonObject } from "./json-guards.js";
import { readJsonLines } from "./read-json-lines.js";
import { transcriptIdFromFile } from "./transcript-id-from-file.js";

interface LogEntry {
  body: JsonObject;
  rawMessages: unknown[];
  response: unknown;
  timestamp: string;
}

/** The previous call's messages, as logged (JSON) and as converted, for keeping ids stable. */
interface PreviousCall {
  json: string[];
  messages: Message[];
}

/**
 * Imports a JSONL log of OpenAI Chat Completions requests: each line a request body, or
 * `{request, response}` / `{body, response}`. Each line is a whole request, so system and tools are
 * known (absent means none). A message identical (same JSON) to the one at the same position in the
 * previous line keeps that message object and id, so ids are stable exactly where the prefix is.
 */
export function importOpenAILog(text: string, file: string): ImportResult {
  const { records, problems } = readJsonLines(text, file);
  const id = transcriptIdFromFile(file);
  const transcript: ImportedTranscript = { id, format: "openai-log", file, calls: [], toolsKnown: true, systemKnown: true };
  let previous: PreviousCall = { json: [], messages: [] };
  for (const { line, value } of records) {
    const entry = readEntry(value);
    if (entry === undefined) {
      problems.push({ file, line, reason: "expected a chat request body {model, messages, …}, or {request, response} or {body, response}" });
      continue;
    }
    const converted = convertCall(entry, `${id}:${transcript.calls.length}`, previous, { file, line }, problems);
    if (converted === undefined) continue;
    const model = optionalString(entry.body.model);
    transcript.model ??= model;
    if (model !== undefined) converted.call.model = model;
    transcript.calls.push(converted.call);
    previous = converted.previous;
  }
  return { transcripts: transcript.calls.length === 0 ? [] : [transcript], problems };
}

function readEntry(value: unknown): LogEntry | undefined {
  if (!isRecord(value)) return undefined;
  const body = isRecord(value.request) ? value.request : isRecord(value.body) ? value.body : value;
  if (!Array.isArray(body.messages)) return undefined;
  // The Batch API nests the completion one level deeper: {response: {status_code, body: {...}}}.
  const response = isRecord(value.response) && isRecord(value.response.body) ? value.response.body : value.response;
  return { body, rawMessages: body.messages, response, timestamp: optionalString(value.timestamp) ?? "" };
}

function convertCall(
  entry: LogEntry,
  idPrefix: string,
  previous: PreviousCall,
  source: { file: string; line: number },
  problems: ImportProblem[],
): { call: ImportedCall; previous: PreviousCall } | undefined {
  const json = entry.rawMessages.map((message) => JSON.stringify(message));
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  for (const [index, raw] of entry.rawMessages.entries()) {
    let message = previous.json[index] === json[index] ? previous.messages[index] : undefined;
    if (message === undefined) {
      const converted = convertOpenAIMessage(raw, { id: `${idPrefix}.${index}`, createdAt: entry.timestamp, toolNames }, `messages[${index}]`);
      if (!converted.ok) {
        problems.push({ ...source, reason: converted.reason });
        return undefined;
      }
      message = converted.message;
    }
    if (message.role === "assistant") for (const call of toolCallsOf(message)) toolNames.set(call.id, call.name);
    messages.push(message);
  }
  const tools = convertOpenAITools(entry.body.tools ?? entry.body.functions ?? [], "tools");
  if (typeof tools === "string") {
    problems.push({ ...source, reason: tools });
    return undefined;
  }
  const [first, ...rest] = messages;
  const request =
    first?.role === "system"
      ? createImportedRequest({ system: first.content, tools, messages: rest })
      : createImportedRequest({ tools, messages });
  const call: ImportedCall = { request, source };
  const response = convertResponse(entry.response, `${idPrefix}:response`, toolNames);
  if (response.message !== undefined) call.response = response.message;
  if (response.usage !== undefined) call.reportedUsage = response.usage;
  return { call, previous: { json, messages } };
}

/** A Chat Completions response: the first choice's message with its finish reason, and the usage. */
function convertResponse(raw: unknown, id: string, toolNames: Map<string, string>): { message?: AssistantMessage; usage?: ReportedUsage } {
  if (!isRecord(raw)) return {};
  const usage = convertOpenAIReportedUsage(raw.usage);
  const choice = Array.isArray(raw.choices) && isRecord(raw.choices[0]) ? raw.choices[0] : undefined;
  if (choice === undefined) return { usage };
  const createdAt = typeof raw.created === "number" ? new Date(raw.created * 1000).toISOString() : "";
  const converted = convertOpenAIMessage(choice.message, { id, createdAt, toolNames }, "response");
  if (!converted.ok || converted.message.role !== "assistant") return { usage };
  const message = converted.message;
  const finish = mapOpenAIFinishReason(optionalString(choice.finish_reason), toolCallsOf(message).length > 0);
  message.stopReason = finish.stopReason;
  if (finish.rawStopReason !== undefined) message.rawStopReason = finish.rawStopReason;
  return { usage, message };
}
