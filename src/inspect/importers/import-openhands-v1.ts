import type { AssistantMessage, AssistantPart, Message } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportResult, ReportedUsage } from "../imported-transcript.js";
import { applyOpenHandsCondensation, openHandsCondensationBreak, type OpenHandsHistoryEntry } from "./apply-openhands-condensation.js";
import { createImportedRequest } from "./create-imported-request.js";
import { isRecord, optionalCount, optionalString, parseArguments, withoutUndefined, type JsonObject } from "./json-guards.js";
import { SkippedRecords } from "./skipped-records.js";
import { transcriptIdFromFile } from "./transcript-id-from-file.js";

/** Events of the V1 SDK that never reach a prompt. */
const stateEvents = new Set(["ConversationStateUpdateEvent", "PauseEvent", "CondensationRequest", "ConversationErrorEvent", "TokenEvent"]);

/**
 * Imports the events of an OpenHands V1 conversation (software-agent-sdk, OpenHands CLI 1.x:
 * `openhands --headless --json` output, or an event list), each `{kind, source, …}`. The
 * `SystemPromptEvent` is the system prompt; user `MessageEvent`s (with their `extended_content`) are
 * user messages; the `ActionEvent`s sharing an `llm_response_id` are one response (parallel tool
 * calls), an agent `MessageEvent` another; `ObservationEvent`, `AgentErrorEvent` and
 * `UserRejectObservation` answer a `tool_call_id`; a `Condensation` forgets events and inserts its
 * summary (a declared break). Usage is not on the events: it is taken per response from the
 * `token_usages` (`response_id`) of the conversation's stats when the stream records them, or from
 * the `base_state.json` of a persisted conversation folder, which `importTranscriptFiles` puts first.
 */
export function importOpenHandsV1(events: JsonObject[], file: string): ImportResult {
  const id = transcriptIdFromFile(file);
  const history: OpenHandsHistoryEntry[] = [];
  const calls: ImportedCall[] = [];
  const callsByResponse = new Map<string, { call: ImportedCall; message: AssistantMessage }>();
  const usageByResponse = new Map<string, RecordedUsage>();
  const skipped = new SkippedRecords();
  const eventIndex = new Map<string, number>();
  let system = "";
  let systemKnown = false;
  let condensed = false;
  let model: string | undefined;
  for (const [index, event] of events.entries()) {
    const eventId = optionalString(event.id) ?? String(index);
    eventIndex.set(eventId, index);
    const meta = (origin: Message["meta"]["origin"]) => ({ id: `${id}:${eventId}`, origin, createdAt: optionalString(event.timestamp) ?? "" });
    const add = (message: Message) => history.push({ message, eventId: index });
    const respond = (responseId: string, parts: AssistantPart[]) => {
      const open = callsByResponse.get(responseId);
      if (open !== undefined) {
        open.message.content.push(...parts);
        return;
      }
      const message: AssistantMessage = { role: "assistant", content: parts, meta: { ...meta("model"), id: `${id}:${responseId}` } };
      const call: ImportedCall = { request: createImportedRequest({ system, messages: history.map((entry) => entry.message) }), response: message, source: { file, line: index + 1 } };
      if (condensed) call.declaredBreak = { reason: openHandsCondensationBreak };
      condensed = false;
      calls.push(call);
      callsByResponse.set(responseId, { call, message });
      add(message);
    };
    switch (event.kind) {
      case "SystemPromptEvent":
        system = [textOf(isRecord(event.system_prompt) ? [event.system_prompt] : event.system_prompt), textOf(event.dynamic_context)].filter((part) => part !== "").join("\n\n");
        systemKnown = true;
        break;
      case "MessageEvent": {
        const message = isRecord(event.llm_message) ? event.llm_message : {};
        if (event.source === "user" || message.role === "user") {
          add({ role: "user", content: [textOf(message.content), textOf(event.extended_content)].filter((part) => part !== "").join("\n"), meta: meta("user") });
        } else {
          respond(optionalString(event.llm_response_id) ?? eventId, [...thinkingOf(message), { type: "text", text: textOf(message.content) }]);
        }
        break;
      }
      case "ActionEvent": {
        const toolCall = isRecord(event.tool_call) ? event.tool_call : {};
        const argumentsText = optionalString(toolCall.arguments) ?? JSON.stringify(event.action ?? {});
        const thought = textOf(event.thought);
        const parts: AssistantPart[] = [...thinkingOf(event), ...(thought === "" ? [] : [{ type: "text" as const, text: thought }])];
        const name = optionalString(toolCall.name) ?? optionalString(event.tool_name) ?? "";
        parts.push({ type: "tool_call", id: optionalString(event.tool_call_id) ?? optionalString(toolCall.id) ?? eventId, name, argumentsText, arguments: parseArguments(argumentsText) });
        respond(optionalString(event.llm_response_id) ?? eventId, parts);
        break;
      }
      case "ObservationEvent":
      case "AgentErrorEvent":
      case "UserRejectObservation": {
        const observation = isRecord(event.observation) ? event.observation : {};
        const content = event.kind === "ObservationEvent" ? textOf(observation.content) : (optionalString(event.error) ?? optionalString(event.rejection_reason) ?? "");
        const isError = event.kind !== "ObservationEvent" || observation.is_error === true;
        add({ role: "tool", toolCallId: optionalString(event.tool_call_id) ?? "", toolName: optionalString(event.tool_name) ?? "", content, isError, meta: meta("tool") });
        break;
      }
      case "Condensation": {
        // V1 names forgotten events by id; the history holds their positions in the stream.
        const forgotten = new Set(Array.isArray(event.forgotten_event_ids) ? event.forgotten_event_ids.map((forgottenId) => eventIndex.get(String(forgottenId))) : []);
        applyOpenHandsCondensation(history, (at) => forgotten.has(at), optionalString(event.summary), meta("harness"));
        condensed = true;
        break;
      }
      default: {
        const kind = optionalString(event.kind) ?? "event without kind";
        if (kind === "ConversationStateUpdateEvent") collectTokenUsages(event.value, usageByResponse, 0);
        // A persisted conversation's base_state.json (read first from its folder): the usage of every call.
        else if (event.kind === undefined && isRecord(event.stats)) collectTokenUsages(event.stats, usageByResponse, 0);
        else if (!stateEvents.has(kind)) skipped.add(kind);
      }
    }
  }
  for (const [responseId, { call }] of callsByResponse) {
    const recorded = usageByResponse.get(responseId);
    if (recorded === undefined) continue;
    call.reportedUsage = recorded.usage;
    if (recorded.model !== undefined) call.model = recorded.model;
    model ??= recorded.model;
  }
  const transcript: ImportedTranscript = { id, format: "openhands", file, calls, toolsKnown: false, systemKnown, meta: { version: 1 } };
  if (model !== undefined) transcript.model = model;
  const notes: string[] = [];
  const note = skipped.note("OpenHands events", "OpenHands may have shown them to the model, so the counted prompts can be short of the reported ones");
  if (note !== undefined) notes.push(note);
  if (calls.length > 0 && usageByResponse.size === 0) notes.push("The OpenHands event stream records no per-call usage (no stats update with token_usages, no base_state.json): token counts are estimates.");
  if (notes.length > 0) transcript.notes = notes;
  return { transcripts: calls.length === 0 ? [] : [transcript], problems: [] };
}

interface RecordedUsage {
  usage: ReportedUsage;
  model: string | undefined;
}

/** Finds `token_usages: [{response_id, prompt_tokens, …}]` (the SDK's Metrics) in a stats update; the latest record of a response wins. */
function collectTokenUsages(value: unknown, into: Map<string, RecordedUsage>, depth: number): void {
  if (depth > 6 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const entry of value) collectTokenUsages(entry, into, depth + 1);
    return;
  }
  const record = value as JsonObject;
  if (Array.isArray(record.token_usages)) {
    for (const usage of record.token_usages.filter(isRecord)) {
      const responseId = optionalString(usage.response_id);
      if (responseId === undefined) continue;
      const converted = withoutUndefined<ReportedUsage>({
        promptTokens: optionalCount(usage.prompt_tokens),
        cachedTokens: optionalCount(usage.cache_read_tokens),
        cacheWriteTokens: optionalCount(usage.cache_write_tokens),
        completionTokens: optionalCount(usage.completion_tokens),
      });
      into.set(responseId, { usage: converted, model: optionalString(usage.model) });
    }
    return;
  }
  for (const entry of Object.values(record)) collectTokenUsages(entry, into, depth + 1);
}

/** Text of SDK content (`[{type: "text", text}]`, a text object, or a string); images leave a placeholder. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (isRecord(content)) return textOf([content]);
  if (!Array.isArray(content)) return "";
  return content.map((part) => (isRecord(part) ? (optionalString(part.text) ?? `[${optionalString(part.type) ?? "content"}]`) : "")).join("\n");
}

function thinkingOf(source: JsonObject): AssistantPart[] {
  const blocks = Array.isArray(source.thinking_blocks) ? source.thinking_blocks.filter(isRecord) : [];
  const parts: AssistantPart[] = blocks.map((block) => {
    const thinking = optionalString(block.thinking) ?? "";
    const signature = optionalString(block.signature);
    return signature === undefined ? { type: "thinking", thinking } : { type: "thinking", thinking, signature };
  });
  const reasoning = optionalString(source.reasoning_content);
  if (parts.length === 0 && reasoning !== undefined && reasoning !== "") parts.push({ type: "thinking", thinking: reasoning });
  return parts;
}
