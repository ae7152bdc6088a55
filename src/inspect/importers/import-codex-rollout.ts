import type { AssistantMessage, AssistantPart, Message, MessageMeta, ModelRequest } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportResult, ReportedUsage } from "../imported-transcript.js";
import { convertCodexResponseItem } from "./convert-codex-response-item.js";
import { createImportedRequest } from "./create-imported-request.js";
import { isRecord, optionalCount, optionalString, withoutUndefined, type JsonObject } from "./json-guards.js";
import { readJsonLines, type JsonLine } from "./read-json-lines.js";
import { SkippedRecords } from "./skipped-records.js";
import { wrapPreEnvelopeRolloutLine } from "./wrap-pre-envelope-rollout-line.js";
import { transcriptIdFromFile } from "./transcript-id-from-file.js";

interface PendingCall {
  request: ModelRequest;
  /** The model of the turn the call belongs to (turn_context), which can change mid-run. */
  model?: string;
  /** The reasoning effort of that turn (turn_context.effort): a change starts a new cache at OpenAI. */
  effort?: string;
  line: number;
  outputs: AssistantMessage[];
  usage?: ReportedUsage;
  /** The first call after a compaction sends the replaced history: a declared cache break. */
  declared?: string;
}

/**
 * Imports a Codex CLI rollout (`~/.codex/sessions/…/rollout-*.jsonl`, lines `{timestamp, type,
 * payload}`). The history is the `response_item`s in order; a call is the model output between two
 * `token_count` events, whose `last_token_usage` is that call's usage. Codex may record a tool's
 * output before the response that called it has finished, so only a token count or a new user
 * message ends a call (files without token counts end a call at any input). A token count that
 * repeats the previous running total is a repeat, not the end of another call. `compacted` replaces the
 * history; message ids restart in a new generation (`<id>:g1.0`) so they never collide with old ones.
 * Rollouts from before the envelope (mid 2025) are read too (`wrapPreEnvelopeRolloutLine`); they have
 * no token counts.
 */
export function importCodexRollout(text: string, file: string): ImportResult {
  const { records, problems } = readJsonLines(text, file);
  const hasTokenCounts = records.some(({ value }) => isRecord(value) && isRecord(value.payload) && value.payload.type === "token_count");
  const transcript: ImportedTranscript = { id: transcriptIdFromFile(file), format: "codex", file, calls: [], toolsKnown: false, systemKnown: false };
  const skipped = new SkippedRecords();
  const toolNames = new Map<string, string>();
  let system = "";
  let generation = 0;
  let history: Message[] = [];
  let open: AssistantMessage | undefined;
  let pending: PendingCall | undefined;
  let compactedSinceLastCall = false;
  let lastTotalUsage: string | undefined;
  let turnModel: string | undefined;
  let turnEffort: string | undefined;

  const metaAt = (origin: MessageMeta["origin"], createdAt: string): MessageMeta => ({
    id: generation === 0 ? `${transcript.id}:${history.length}` : `${transcript.id}:g${generation}.${history.length}`,
    origin,
    createdAt,
  });
  const addOutput = (parts: AssistantPart[], createdAt: string): AssistantMessage | undefined => {
    if (open !== undefined) {
      open.content.push(...parts);
      return undefined;
    }
    open = { role: "assistant", content: parts, meta: metaAt("model", createdAt) };
    history.push(open);
    return open;
  };
  const addInput = (message: Message) => {
    open = undefined;
    history.push(message);
  };
  const closeCall = () => {
    if (pending !== undefined) transcript.calls.push(toCall(pending, `${transcript.id}:call${transcript.calls.length}:response`, file));
    pending = undefined;
    open = undefined;
  };
  const addItem = (payload: JsonObject, line: JsonLine, createdAt: string, replaying: boolean) => {
    const item = convertCodexResponseItem(payload, metaAt("user", createdAt), toolNames);
    if (item.kind === "invalid") problems.push({ file, line: line.line, reason: item.reason });
    if (item.kind === "skipped") skipped.add(item.type);
    if (item.kind === "input") {
      if (!replaying && (item.message.role !== "tool" || !hasTokenCounts)) closeCall();
      addInput(item.message);
    }
    if (item.kind !== "output") return;
    if (!replaying && pending === undefined) {
      pending = { request: createImportedRequest({ system, messages: history.slice() }), line: line.line, outputs: [] };
      if (turnModel !== undefined) pending.model = turnModel;
      if (turnEffort !== undefined) pending.effort = turnEffort;
      if (compactedSinceLastCall) pending.declared = "Codex compaction (history replaced by a summary)";
      compactedSinceLastCall = false;
    }
    const created = addOutput(item.parts, createdAt);
    if (!replaying && created !== undefined) pending?.outputs.push(created);
  };

  for (const [index, record] of records.entries()) {
    const value = wrapPreEnvelopeRolloutLine(record.value, index === 0);
    if (value === undefined) continue;
    if (!isRecord(value) || typeof value.type !== "string" || !isRecord(value.payload)) {
      problems.push({ file, line: record.line, reason: 'expected a rollout line {"timestamp", "type", "payload": {…}}' });
      continue;
    }
    const { payload } = value;
    const createdAt = optionalString(value.timestamp) ?? "";
    switch (value.type) {
      case "session_meta": {
        if (history.length === 0) transcript.id = optionalString(payload.id) ?? transcript.id;
        const instructions = (isRecord(payload.base_instructions) ? optionalString(payload.base_instructions.text) : undefined) ?? optionalString(payload.instructions);
        if (instructions !== undefined) {
          system = instructions;
          transcript.systemKnown = true;
        }
        break;
      }
      case "turn_context":
        turnModel = optionalString(payload.model) ?? turnModel;
        turnEffort = optionalString(payload.effort) ?? turnEffort;
        transcript.model ??= turnModel;
        break;
      case "response_item":
        addItem(payload, record, createdAt, false);
        break;
      case "event_msg":
        if (payload.type === "token_count" && isRecord(payload.info)) {
          // Codex repeats a token_count (same running total, same last usage) for rate-limit
          // updates, sometimes after the next response has started: no call ended there.
          const total = isRecord(payload.info.total_token_usage) ? JSON.stringify(payload.info.total_token_usage) : undefined;
          const repeated = total !== undefined && total === lastTotalUsage;
          if (total !== undefined) lastTotalUsage = total;
          if (repeated || pending === undefined) break;
          pending.usage = convertCodexUsage(payload.info.last_token_usage);
          closeCall();
        }
        break;
      case "compacted":
        closeCall();
        generation += 1;
        compactedSinceLastCall = true;
        history = [];
        if (Array.isArray(payload.replacement_history)) {
          for (const item of payload.replacement_history) if (isRecord(item)) addItem(item, record, createdAt, true);
        } else {
          // Older rollouts keep only the summary; Codex rebuilt the rest from earlier user messages.
          addInput({ role: "user", content: optionalString(payload.message) ?? "", meta: metaAt("harness", createdAt) });
        }
        open = undefined;
        break;
      default:
        skipped.add(value.type);
    }
  }
  closeCall();
  transcript.meta = { skipped: skipped.toRecord(), compactions: generation };
  const note = skipped.note("rollout items", "they are not in the counted prompts (the reported usage still includes what the model saw of them)");
  if (note !== undefined) transcript.notes = [note];
  return { transcripts: transcript.calls.length === 0 && history.length === 0 ? [] : [transcript], problems };
}

/** One call; a response split by tool outputs recorded mid-stream is merged into one message. */
function toCall(pending: PendingCall, responseId: string, file: string): ImportedCall {
  const [first] = pending.outputs;
  const response: AssistantMessage | undefined =
    pending.outputs.length === 1
      ? first
      : first === undefined
        ? undefined
        : { role: "assistant", content: pending.outputs.flatMap((message) => message.content), meta: { ...first.meta, id: responseId } };
  const call: ImportedCall = { request: pending.request, source: { file, line: pending.line } };
  if (response !== undefined) call.response = response;
  if (pending.usage !== undefined) call.reportedUsage = pending.usage;
  if (pending.model !== undefined) call.model = pending.model;
  if (pending.effort !== undefined) call.effort = pending.effort;
  if (pending.declared !== undefined) call.declaredBreak = { reason: pending.declared };
  return call;
}

/** Responses API usage: `input_tokens` is the whole prompt, `cached_input_tokens` the cached part of it. */
function convertCodexUsage(raw: unknown): ReportedUsage | undefined {
  if (!isRecord(raw)) return undefined;
  return withoutUndefined<ReportedUsage>({
    promptTokens: optionalCount(raw.input_tokens),
    cachedTokens: optionalCount(raw.cached_input_tokens),
    completionTokens: optionalCount(raw.output_tokens),
  });
}
