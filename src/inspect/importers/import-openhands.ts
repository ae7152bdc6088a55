import type { AssistantMessage, Message } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportProblem, ImportResult, ReportedUsage } from "../imported-transcript.js";
import { applyOpenHandsCondensation, forgottenOpenHandsEvents, openHandsCondensationBreak, type OpenHandsHistoryEntry } from "./apply-openhands-condensation.js";
import { convertOpenAIMessage } from "./convert-openai-message.js";
import { convertOpenAIReportedUsage } from "./convert-openai-reported-usage.js";
import { importOpenHandsV1 } from "./import-openhands-v1.js";
import { opensAsJsonLines, readJsonLines } from "./read-json-lines.js";
import { hasOpenHandsEventMarkers, readOpenHandsJsonEvents } from "./read-openhands-json-events.js";
import { createImportedRequest } from "./create-imported-request.js";
import { isRecord, optionalString, type JsonObject } from "./json-guards.js";
import { SkippedRecords } from "./skipped-records.js";
import { transcriptIdFromFile } from "./transcript-id-from-file.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";

/**
 * Imports an OpenHands event trajectory (a JSON array of events, or `{events: [...]}`; V1 SDK events
 * `{kind, …}`, also as JSONL or as `openhands --headless --json` output, go to `importOpenHandsV1`). V0: user
 * `message` actions are user messages; an agent event's `tool_call_metadata.model_response` is the
 * LiteLLM response of the call that produced it — repeated on the action and on its observation,
 * and shared by every action of a response with parallel tool calls, so responses are kept once per
 * `model_response.id`; observations with a `tool_call_id` are the tool results. An agent `message`
 * without metadata is a call whose usage was not recorded. A `condensation` action removes the
 * events it forgot from later prompts and puts its summary in their place (a declared break).
 * Other events that reach the model (recall observations, errors without a tool call) are counted
 * in a note. System prompt and tools are not in the file.
 */
export function importOpenHands(text: string, file: string): ImportResult {
  let value: unknown;
  try {
    value = parseUntrustedJson(text);
  } catch (error) {
    const read = hasOpenHandsEventMarkers(text) ? readOpenHandsJsonEvents(text, file) : readV1EventLines(text, file);
    if (read === undefined) return { transcripts: [], problems: [{ file, reason: `not valid JSON (${(error as Error).message})` }] };
    const imported = importOpenHandsV1(read.events, file);
    return { transcripts: imported.transcripts, problems: [...read.problems, ...imported.problems] };
  }
  if (isRecord(value) && typeof value.kind === "string") {
    // One file of a conversation's events/ folder: a run only as a whole.
    const reason = `one OpenHands V1 event (${value.kind}), not a run: inspect the conversation's folder (the one holding base_state.json and events/), which is read as one run with its usage`;
    return { transcripts: [], problems: [{ file, reason }] };
  }
  const events = Array.isArray(value) ? value : isRecord(value) && Array.isArray(value.events) ? value.events : isRecord(value) && Array.isArray(value.history) ? value.history : undefined;
  if (events === undefined) return { transcripts: [], problems: [{ file, reason: "expected an OpenHands event list [{id, source, action | observation, …}] or V1 events [{kind, …}]" }] };
  if (events.some((event) => isRecord(event) && typeof event.kind === "string")) return importOpenHandsV1(events.filter(isRecord), file);
  const id = transcriptIdFromFile(file);
  const toolNames = new Map<string, string>();
  const history: OpenHandsHistoryEntry[] = [];
  const calls: ImportedCall[] = [];
  const seenResponses = new Set<string>();
  const skipped = new SkippedRecords();
  let condensed = false;
  let model: string | undefined;
  const addCall = (message: AssistantMessage, usage: ReportedUsage | undefined, callModel: string | undefined, eventId: number | undefined) => {
    const call = callOf(history, message, usage, callModel, file);
    if (condensed) call.declaredBreak = { reason: openHandsCondensationBreak };
    condensed = false;
    calls.push(call);
    history.push({ message, eventId });
  };
  for (const event of events) {
    if (!isRecord(event)) continue;
    const eventNumber = typeof event.id === "number" ? event.id : undefined;
    const eventId = `${id}:${String(event.id ?? history.length)}`;
    const createdAt = optionalString(event.timestamp) ?? "";
    const metadata = isRecord(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
    const response = metadata !== undefined && isRecord(metadata.model_response) ? metadata.model_response : undefined;
    if (event.source === "user" && event.action === "message") {
      history.push({ message: { role: "user", content: contentOf(event), meta: { id: eventId, origin: "user", createdAt } }, eventId: eventNumber });
    } else if (event.action === "condensation") {
      const args = isRecord(event.args) ? event.args : {};
      const forgotten = forgottenOpenHandsEvents(args);
      if (forgotten === undefined) continue;
      applyOpenHandsCondensation(history, forgotten, optionalString(args.summary), { id: eventId, origin: "harness", createdAt });
      condensed = true;
    } else if (event.action !== undefined && response !== undefined) {
      const responseId = optionalString(response.id) ?? eventId;
      if (seenResponses.has(responseId)) continue;
      seenResponses.add(responseId);
      const message = assistantOf(response, `${id}:${responseId}`, createdAt, toolNames);
      if (message === undefined) continue;
      model ??= optionalString(response.model);
      addCall(message, convertOpenAIReportedUsage(response.usage), optionalString(response.model), eventNumber);
    } else if (event.source === "agent" && event.action === "message") {
      addCall({ role: "assistant", content: [{ type: "text", text: contentOf(event) }], meta: { id: eventId, origin: "model", createdAt } }, undefined, undefined, eventNumber);
    } else if (event.observation !== undefined && event.observation !== null && metadata !== undefined) {
      const toolCallId = optionalString(metadata.tool_call_id);
      if (toolCallId === undefined) continue;
      const toolName = optionalString(metadata.function_name) ?? toolNames.get(toolCallId) ?? "";
      const message: Message = { role: "tool", toolCallId, toolName, content: optionalString(event.content) ?? "", isError: event.success === false, meta: { id: eventId, origin: "tool", createdAt } };
      history.push({ message, eventId: eventNumber });
    } else {
      const type = optionalString(event.observation) ?? optionalString(event.action);
      if (type !== undefined && !bookkeepingEvents.has(type)) skipped.add(type);
    }
  }
  const transcript: ImportedTranscript = { id, format: "openhands", file, calls, toolsKnown: false, systemKnown: false };
  if (model !== undefined) transcript.model = model;
  const note = skipped.note("OpenHands events", "OpenHands may have shown them to the model, so the counted prompts can be short of the reported ones");
  if (note !== undefined) transcript.notes = [note];
  return { transcripts: calls.length === 0 ? [] : [transcript], problems: [] };
}

/** V1 events one per line (the SDK's events joined with `jq -c`, or a tool's JSONL); undefined when the text holds none. */
function readV1EventLines(text: string, file: string): { events: JsonObject[]; problems: ImportProblem[] } | undefined {
  if (!opensAsJsonLines(text)) return undefined;
  const { records, problems } = readJsonLines(text, file);
  const events = records.map((record) => record.value).filter(isRecord);
  return events.some((event) => typeof event.kind === "string") ? { events, problems } : undefined;
}

/** Events about the agent's state or the UI, never part of a prompt. */
const bookkeepingEvents = new Set(["agent_state_changed", "change_agent_state", "null", "system", "user_rejected"]);

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

function callOf(history: readonly OpenHandsHistoryEntry[], response: AssistantMessage, usage: ReportedUsage | undefined, model: string | undefined, file: string): ImportedCall {
  const call: ImportedCall = { request: createImportedRequest({ messages: history.map((entry) => entry.message) }), response, source: { file } };
  if (usage !== undefined) call.reportedUsage = usage;
  if (model !== undefined) call.model = model;
  return call;
}
