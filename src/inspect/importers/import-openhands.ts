import type { AssistantMessage, Message } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportResult } from "../imported-transcript.js";
import { convertOpenAIMessage } from "./convert-openai-message.js";
import { convertOpenAIReportedUsage } from "./convert-openai-reported-usage.js";
import { createImportedRequest } from "./create-imported-request.js";
import { isRecord, optionalString, type JsonObject } from "./json-guards.js";
import { transcriptIdFromFile } from "./transcript-id-from-file.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";

/**
 * Imports an OpenHands event trajectory (a JSON array of events, or `{events: [...]}`): user
 * `message` actions are user messages; an agent event's `tool_call_metadata.model_response` is the
 * LiteLLM response of the call that produced it — repeated on the action and on its observation,
 * and shared by every action of a response with parallel tool calls, so responses are kept once per
 * `model_response.id`; observations with a `tool_call_id` are the tool results. An agent `message`
 * without metadata is a call whose usage was not recorded. System prompt and tools are not in the file.
 */
export function importOpenHands(text: string, file: string): ImportResult {
  let value: unknown;
  try {
    value = parseUntrustedJson(text);
  } catch (error) {
    return { transcripts: [], problems: [{ file, reason: `not valid JSON (${(error as Error).message})` }] };
  }
  const events = Array.isArray(value) ? value : isRecord(value) && Array.isArray(value.events) ? value.events : undefined;
  if (events === undefined) return { transcripts: [], problems: [{ file, reason: "expected an OpenHands event list [{id, source, action | observation, …}]" }] };
  const id = transcriptIdFromFile(file);
  const toolNames = new Map<string, string>();
  const history: Message[] = [];
  const calls: ImportedCall[] = [];
  const seenResponses = new Set<string>();
  let model: string | undefined;
  for (const event of events) {
    if (!isRecord(event)) continue;
    const eventId = `${id}:${String(event.id ?? history.length)}`;
    const createdAt = optionalString(event.timestamp) ?? "";
    const metadata = isRecord(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
    const response = metadata !== undefined && isRecord(metadata.model_response) ? metadata.model_response : undefined;
    if (event.source === "user" && event.action === "message") {
      history.push({ role: "user", content: contentOf(event), meta: { id: eventId, origin: "user", createdAt } });
    } else if (event.action !== undefined && response !== undefined) {
      const responseId = optionalString(response.id) ?? eventId;
      if (seenResponses.has(responseId)) continue;
      seenResponses.add(responseId);
      const message = assistantOf(response, `${id}:${responseId}`, createdAt, toolNames);
      if (message === undefined) continue;
      model ??= optionalString(response.model);
      calls.push(callOf(history, message, convertOpenAIReportedUsage(response.usage), optionalString(response.model), file));
      history.push(message);
    } else if (event.source === "agent" && event.action === "message") {
      const message: AssistantMessage = { role: "assistant", content: [{ type: "text", text: contentOf(event) }], meta: { id: eventId, origin: "model", createdAt } };
      calls.push(callOf(history, message, undefined, undefined, file));
      history.push(message);
    } else if (event.observation !== undefined && metadata !== undefined) {
      const toolCallId = optionalString(metadata.tool_call_id);
      if (toolCallId === undefined) continue;
      const toolName = optionalString(metadata.function_name) ?? toolNames.get(toolCallId) ?? "";
      history.push({ role: "tool", toolCallId, toolName, content: optionalString(event.content) ?? "", isError: event.success === false, meta: { id: eventId, origin: "tool", createdAt } });
    }
  }
  const transcript: ImportedTranscript = { id, format: "openhands", file, calls, toolsKnown: false, systemKnown: false };
  if (model !== undefined) transcript.model = model;
  return { transcripts: calls.length === 0 ? [] : [transcript], problems: [] };
}

function contentOf(event: JsonObject): string {
  const args = isRecord(event.args) ? event.args : {};
  return optionalString(args.content) ?? optionalString(event.message) ?? "";
}

function assistantOf(response: JsonObject, messageId: string, createdAt: string, toolNames: Map<string, string>): AssistantMessage | undefined {
  const choice = Array.isArray(response.choices) && isRecord(response.choices[0]) ? response.choices[0] : undefined;
  if (choice === undefined) return undefined;
  const converted = convertOpenAIMessage({ ...(isRecord(choice.message) ? choice.message : {}), role: "assistant" }, { id: messageId, createdAt, toolNames }, "model_response");
  return converted.ok && converted.message.role === "assistant" ? converted.message : undefined;
}

function callOf(history: readonly Message[], response: AssistantMessage, usage: ReturnType<typeof convertOpenAIReportedUsage>, model: string | undefined, file: string): ImportedCall {
  const call: ImportedCall = { request: createImportedRequest({ messages: history.slice() }), response, source: { file } };
  if (usage !== undefined) call.reportedUsage = usage;
  if (model !== undefined) call.model = model;
  return call;
}
