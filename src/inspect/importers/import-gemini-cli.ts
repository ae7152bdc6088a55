import type { AssistantMessage, AssistantPart, Message } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportResult, ReportedUsage } from "../imported-transcript.js";
import { openAIContentText } from "./convert-openai-message.js";
import { createImportedRequest } from "./create-imported-request.js";
import { isRecord, optionalCount, optionalString, parseArguments, withoutUndefined, type JsonObject } from "./json-guards.js";
import { readGeminiCliRecords } from "./read-gemini-cli-records.js";
import { transcriptIdFromFile } from "./transcript-id-from-file.js";

/**
 * Imports a Gemini CLI chat recording (`~/.gemini/tmp/<project>/chats/session-*.json` or `.jsonl`,
 * read by `readGeminiCliRecords`). Each `gemini` message is one model call with `tokens {input,
 * cached, output, thoughts, tool}` — `input` is the whole prompt, cached included — and its
 * `toolCalls` carry their results, which the next call saw. A `user` message made only of
 * `functionResponse` parts is those results again (a rewritten history records them as a turn):
 * kept once. `<session_context>` is the CLI's own opening message. `info`/`error`/`warning`
 * messages are the CLI's own and were never sent.
 */
export function importGeminiCli(text: string, file: string): ImportResult {
  const records = readGeminiCliRecords(text, file);
  if (records === undefined) return { transcripts: [], problems: [{ file, reason: "expected a Gemini CLI chat recording {sessionId, projectHash, messages: [...]} or its JSONL log" }] };
  const id = records.sessionId ?? transcriptIdFromFile(file);
  const history: Message[] = [];
  const calls: ImportedCall[] = [];
  const answeredCalls = new Set<string>();
  let model: string | undefined;
  for (const record of records.messages) {
    const messageId = `${id}:${optionalString(record.id) ?? history.length}`;
    const createdAt = optionalString(record.timestamp) ?? "";
    if (record.type === "user") {
      const responses = functionResponsesOf(record.content);
      if (responses === undefined) {
        const content = openAIContentText(record.content);
        history.push({ role: "user", content, meta: { id: messageId, origin: content.trimStart().startsWith("<session_context>") ? "harness" : "user", createdAt } });
        continue;
      }
      for (const [index, response] of responses.entries()) {
        const toolCallId = optionalString(response.id) ?? `${messageId}.response${index}`;
        if (answeredCalls.has(toolCallId)) continue;
        answeredCalls.add(toolCallId);
        const content = resultText([{ functionResponse: response }]);
        history.push({ role: "tool", toolCallId, toolName: optionalString(response.name) ?? "", content, isError: false, meta: { id: `${messageId}.${index}`, origin: "tool", createdAt } });
      }
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
      const toolCallId = optionalString(toolCall.id) ?? `${messageId}.tool${index}`;
      answeredCalls.add(toolCallId);
      history.push({
        role: "tool",
        toolCallId,
        toolName: optionalString(toolCall.name) ?? "",
        content: resultText(toolCall.result),
        isError: toolCall.status === "error",
        meta: { id: `${messageId}.result${index}`, origin: "tool", createdAt: optionalString(toolCall.timestamp) ?? createdAt },
      });
    }
  }
  const transcript: ImportedTranscript = { id, format: "gemini-cli", file, calls, toolsKnown: false, systemKnown: false };
  if (model !== undefined) transcript.model = model;
  return { transcripts: calls.length === 0 ? [] : [transcript], problems: records.problems };
}

/** The `functionResponse` parts of a message whose parts are all function responses; undefined otherwise. */
function functionResponsesOf(content: unknown): JsonObject[] | undefined {
  if (!Array.isArray(content) || content.length === 0) return undefined;
  const responses = content.map((part) => (isRecord(part) && isRecord(part.functionResponse) ? part.functionResponse : undefined));
  return responses.every((response) => response !== undefined) ? (responses as JsonObject[]) : undefined;
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

/**
 * `input` is Gemini's promptTokenCount, which includes `cached` (cachedContentTokenCount); `tool`
 * (toolUsePromptTokenCount, the results of built-in tools such as search grounding) is prompt beyond
 * it, billed as input: `total = input + tool + output + thoughts`. Thoughts are billed as output.
 */
function convertGeminiTokens(raw: unknown): ReportedUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = optionalCount(raw.input);
  const output = optionalCount(raw.output);
  const thoughts = optionalCount(raw.thoughts);
  const usage = withoutUndefined<ReportedUsage>({
    promptTokens: input === undefined ? undefined : input + (optionalCount(raw.tool) ?? 0),
    cachedTokens: optionalCount(raw.cached),
    completionTokens: output === undefined && thoughts === undefined ? undefined : (output ?? 0) + (thoughts ?? 0),
  });
  return Object.keys(usage).length === 0 ? undefined : usage;
}
