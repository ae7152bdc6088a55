import type { AssistantMessage, AssistantPart, Message } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportResult, ReportedUsage } from "../imported-transcript.js";
import { openAIContentText } from "./convert-openai-message.js";
import { createImportedRequest } from "./create-imported-request.js";
import { isRecord, optionalCount, optionalString, parseArguments, withoutUndefined, type JsonObject } from "./json-guards.js";
import { transcriptIdFromFile } from "./transcript-id-from-file.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";

/**
 * Imports a Gemini CLI chat recording (`~/.gemini/tmp/<project>/chats/session-*.json`, or the newer
 * `.jsonl`: a metadata line, then one record per message, where a later copy of an id replaces the
 * earlier one, `$rewindTo` drops messages from an id on and `$set` updates metadata). Each `gemini`
 * message is one model call with `tokens {input, cached, output, thoughts, tool}` — `input` is the
 * whole prompt, cached included — and its `toolCalls` carry their results, which the next call saw.
 * `info`/`error`/`warning` messages are the CLI's own and were never sent.
 */
export function importGeminiCli(text: string, file: string): ImportResult {
  const records = readRecords(text);
  if (records === undefined) return { transcripts: [], problems: [{ file, reason: "expected a Gemini CLI chat recording {sessionId, projectHash, messages: [...]}" }] };
  const id = records.sessionId ?? transcriptIdFromFile(file);
  const history: Message[] = [];
  const calls: ImportedCall[] = [];
  let model: string | undefined;
  for (const record of records.messages) {
    const messageId = `${id}:${optionalString(record.id) ?? history.length}`;
    const createdAt = optionalString(record.timestamp) ?? "";
    if (record.type === "user") {
      history.push({ role: "user", content: openAIContentText(record.content), meta: { id: messageId, origin: "user", createdAt } });
      continue;
    }
    if (record.type !== "gemini") continue;
    const toolCalls = Array.isArray(record.toolCalls) ? record.toolCalls.filter(isRecord) : [];
    const response: AssistantMessage = { role: "assistant", content: responseParts(record, toolCalls, messageId), meta: { id: messageId, origin: "model", createdAt } };
    const call: ImportedCall = { request: createImportedRequest({ messages: history.slice() }), response, source: { file } };
    const usage = convertGeminiTokens(record.tokens);
    if (usage !== undefined) call.reportedUsage = usage;
    const callModel = optionalString(record.model);
    if (callModel !== undefined) call.model = callModel;
    model ??= callModel;
    calls.push(call);
    history.push(response);
    for (const [index, toolCall] of toolCalls.entries()) {
      history.push({
        role: "tool",
        toolCallId: optionalString(toolCall.id) ?? `${messageId}.tool${index}`,
        toolName: optionalString(toolCall.name) ?? "",
        content: resultText(toolCall.result),
        isError: toolCall.status === "error",
        meta: { id: `${messageId}.result${index}`, origin: "tool", createdAt: optionalString(toolCall.timestamp) ?? createdAt },
      });
    }
  }
  const transcript: ImportedTranscript = { id, format: "gemini-cli", file, calls, toolsKnown: false, systemKnown: false };
  if (model !== undefined) transcript.model = model;
  return { transcripts: calls.length === 0 ? [] : [transcript], problems: [] };
}

function readRecords(text: string): { sessionId?: string; messages: JsonObject[] } | undefined {
  const start = text.trimStart();
  try {
    const whole = parseUntrustedJson(start);
    if (isRecord(whole) && Array.isArray(whole.messages)) return { ...withoutUndefined({ sessionId: optionalString(whole.sessionId) }), messages: whole.messages.filter(isRecord) };
  } catch {
    // not one JSON value: the JSONL layout
  }
  const byId = new Map<string, JsonObject>();
  let sessionId: string | undefined;
  for (const line of start.split("\n")) {
    if (line.trim() === "") continue;
    let record: unknown;
    try {
      record = parseUntrustedJson(line);
    } catch {
      continue;
    }
    if (!isRecord(record)) continue;
    if (typeof record.$rewindTo === "string") {
      const ids = [...byId.keys()];
      const from = ids.indexOf(record.$rewindTo);
      for (const removed of from === -1 ? ids : ids.slice(from)) byId.delete(removed);
    } else if (typeof record.id === "string") byId.set(record.id, record);
    else if (typeof record.sessionId === "string") sessionId ??= record.sessionId;
  }
  return sessionId === undefined ? undefined : { sessionId, messages: [...byId.values()] };
}

function responseParts(record: JsonObject, toolCalls: JsonObject[], messageId: string): AssistantPart[] {
  const parts: AssistantPart[] = [];
  const thoughts = Array.isArray(record.thoughts) ? record.thoughts.filter(isRecord) : [];
  const thinking = thoughts.map((thought) => [optionalString(thought.subject), optionalString(thought.description)].filter(Boolean).join(": ")).join("\n");
  if (thinking !== "") parts.push({ type: "thinking", thinking });
  const text = openAIContentText(record.content);
  if (text !== "") parts.push({ type: "text", text });
  for (const [index, toolCall] of toolCalls.entries()) {
    const argumentsText = JSON.stringify(isRecord(toolCall.args) ? toolCall.args : {});
    parts.push({ type: "tool_call", id: optionalString(toolCall.id) ?? `${messageId}.tool${index}`, name: optionalString(toolCall.name) ?? "", argumentsText, arguments: parseArguments(argumentsText) });
  }
  return parts;
}

/** A tool result as Gemini CLI stores it: `functionResponse.response.output` parts (or `error`). */
function resultText(result: unknown): string {
  const parts = Array.isArray(result) ? result : [result];
  return parts
    .map((part) => {
      if (!isRecord(part)) return typeof part === "string" ? part : "";
      if (typeof part.text === "string") return part.text;
      const response = isRecord(part.functionResponse) && isRecord(part.functionResponse.response) ? part.functionResponse.response : undefined;
      if (response === undefined) return "";
      return optionalString(response.output) ?? optionalString(response.error) ?? JSON.stringify(response);
    })
    .join("");
}

/** `input` is Gemini's promptTokenCount, which includes `cached` (cachedContentTokenCount). Thoughts are billed as output. */
function convertGeminiTokens(raw: unknown): ReportedUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const output = optionalCount(raw.output);
  const thoughts = optionalCount(raw.thoughts);
  const usage = withoutUndefined<ReportedUsage>({
    promptTokens: optionalCount(raw.input),
    cachedTokens: optionalCount(raw.cached),
    completionTokens: output === undefined && thoughts === undefined ? undefined : (output ?? 0) + (thoughts ?? 0),
  });
  return Object.keys(usage).length === 0 ? undefined : usage;
}
