import { mapOpenAIFinishReason } from "../../providers/openai-compatible/map-openai-finish-reason.js";
import { toolCallsOf, type AssistantMessage, type Message, type MessageOrigin } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportResult, ReportedUsage } from "../imported-transcript.js";
import { convertOpenAIMessage } from "./convert-openai-message.js";
import { convertOpenAIReportedUsage } from "./convert-openai-reported-usage.js";
import { convertResponsesApiMessage } from "./convert-responses-api-message.js";
import { createImportedRequest } from "./create-imported-request.js";
import { isRecord, optionalCount, optionalString, type JsonObject } from "./json-guards.js";
import { SkippedRecords } from "./skipped-records.js";
import { transcriptIdFromFile } from "./transcript-id-from-file.js";
import { parseUntrustedJson } from "../../providers/shared/parse-untrusted-json.js";

/**
 * Imports a mini-swe-agent trajectory (`.traj.json`): messages[0] is the system prompt, every
 * assistant message is a call that saw everything before it, and its `extra.response` is the
 * provider's raw response (usage, and reasoning the agent did not send back). Format
 * "mini-swe-agent-1" (v1) parses commands from the text and sends observations as user messages,
 * whose origin says they came from a tool. "mini-swe-agent-1.1" (v2) uses native tool calls and
 * `role: "tool"` observations, and ends with a `{"role": "exit"}` message that holds the exit status
 * and is never sent to the model; its tool schemas are not in the file (`toolsKnown` false). With
 * the `litellm_response` model, responses are stored whole in OpenAI Responses API shape (their
 * `output` items and `usage`) and observations as `function_call_output` items.
 */
export function importMiniSweAgent(text: string, file: string): ImportResult {
  let value: unknown;
  try {
    value = parseUntrustedJson(text);
  } catch (error) {
    return { transcripts: [], problems: [{ file, reason: `not valid JSON (${(error as Error).message})` }] };
  }
  if (!isRecord(value) || !Array.isArray(value.messages)) {
    return { transcripts: [], problems: [{ file, reason: "expected a mini-swe-agent trajectory {info, messages: [...], trajectory_format}" }] };
  }
  const id = optionalString(value.instance_id) ?? transcriptIdFromFile(file);
  const messages: Message[] = [];
  const extras: unknown[] = [];
  const responsesUsage = new Map<Message, ReportedUsage | undefined>();
  const skipped = new SkippedRecords();
  const toolNames = new Map<string, string>();
  for (const [index, raw] of value.messages.entries()) {
    // v2's last message records how the run ended; the model never saw it.
    if (isRecord(raw) && raw.role === "exit") continue;
    const meta = { id: `${id}:${index}`, origin: "user" as const, createdAt: "" };
    const responses = convertResponsesApiMessage(raw, meta, toolNames);
    if (responses.kind === "invalid") return { transcripts: [], problems: [{ file, reason: `messages[${index}]: ${responses.reason}` }] };
    if (responses.kind !== "not-responses") {
      if (responses.kind === "response") {
        responsesUsage.set(responses.message, responses.usage);
        for (const type of responses.skipped) skipped.add(type);
      } else if (responses.message.role === "user" && index > 1) {
        responses.message.meta.origin = "harness"; // a format error fed back to the model
      }
      messages.push(responses.message);
      extras.push(isRecord(raw) ? raw.extra : undefined);
      continue;
    }
    const converted = convertOpenAIMessage(raw, { id: `${id}:${index}`, createdAt: "", toolNames }, `messages[${index}]`);
    if (!converted.ok) return { transcripts: [], problems: [{ file, reason: converted.reason }] };
    converted.message.meta.origin = originOf(converted.message, index);
    messages.push(converted.message);
    extras.push(isRecord(raw) ? raw.extra : undefined);
  }
  const system = messages[0]?.role === "system" ? messages[0].content : undefined;
  const offset = system === undefined ? 0 : 1;
  const conversation = messages.slice(offset);
  const calls: ImportedCall[] = [];
  for (const [index, message] of conversation.entries()) {
    if (message.role !== "assistant") continue;
    const extra = extras[index + offset];
    const fromResponses = responsesUsage.has(message);
    const call: ImportedCall = {
      request: createImportedRequest({ system: system ?? "", messages: conversation.slice(0, index) }),
      response: fromResponses ? message : recordedResponse(message, extra),
      source: { file },
    };
    const usage = fromResponses ? withCost(responsesUsage.get(message), extra) : reportedUsage(extra);
    if (usage !== undefined) call.reportedUsage = usage;
    calls.push(call);
  }
  const info = isRecord(value.info) ? value.info : {};
  // v1 declares no tools (commands are parsed from text); v2 calls a bash tool whose schema is not saved.
  const usesToolCalls = messages.some((message) => message.role === "assistant" && toolCallsOf(message).length > 0);
  const transcript: ImportedTranscript = { id, format: "mini-swe-agent", file, calls, toolsKnown: !usesToolCalls, systemKnown: system !== undefined };
  const model = modelName(info);
  if (model !== undefined) transcript.model = model;
  transcript.meta = { exitStatus: info.exit_status ?? exitStatusOf(value.messages), modelStats: info.model_stats, trajectoryFormat: value.trajectory_format };
  if (usesToolCalls) transcript.meta.toolSchemas = "absent: native tool calls, but the trajectory does not save the tool definitions";
  const note = skipped.note("Responses API output items", "they are not in the counted prompts (the reported usage still includes them)");
  if (note !== undefined) transcript.notes = [note];
  return { transcripts: [transcript], problems: [] };
}

function exitStatusOf(messages: unknown[]): unknown {
  const exit = messages.findLast((message) => isRecord(message) && message.role === "exit");
  return isRecord(exit) && isRecord(exit.extra) ? exit.extra.exit_status : undefined;
}

/** The task (message 1) is the user's; observations carry `<returncode>`; the rest is harness feedback. */
function originOf(message: Message, index: number): MessageOrigin {
  if (message.role !== "user") return message.meta.origin;
  if (index <= 1) return "user";
  return message.content.startsWith("<returncode>") ? "tool" : "harness";
}

/**
 * The response as the provider returned it, when `extra.response` holds it: with the reasoning the
 * agent dropped from its history. It gets its own id because it differs from the history message.
 */
function recordedResponse(message: AssistantMessage, extra: unknown): AssistantMessage {
  const response = isRecord(extra) && isRecord(extra.response) ? extra.response : undefined;
  const choice = response !== undefined && Array.isArray(response.choices) && isRecord(response.choices[0]) ? response.choices[0] : undefined;
  if (choice === undefined) return message;
  const raw = { ...(isRecord(choice.message) ? choice.message : {}), role: "assistant" };
  const converted = convertOpenAIMessage(raw, { ...message.meta, toolNames: new Map() }, "response");
  if (!converted.ok || converted.message.role !== "assistant") return message;
  const recorded = converted.message;
  const finish = mapOpenAIFinishReason(optionalString(choice.finish_reason), toolCallsOf(recorded).length > 0);
  recorded.stopReason = finish.stopReason;
  if (finish.rawStopReason !== undefined) recorded.rawStopReason = finish.rawStopReason;
  const differs = JSON.stringify(recorded.content) !== JSON.stringify(message.content);
  recorded.meta = { ...message.meta, id: differs ? `${message.meta.id}:response` : message.meta.id };
  return recorded;
}

/** Usage sits in `extra.response.usage`. */
function reportedUsage(extra: unknown): ReportedUsage | undefined {
  const response = isRecord(extra) && isRecord(extra.response) ? extra.response : {};
  return withCost(convertOpenAIReportedUsage(response.usage), extra);
}

/** `cost` is in the usage (OpenRouter) or next to the response (`extra.cost`: LiteLLM, Portkey). */
function withCost(usage: ReportedUsage | undefined, extra: unknown): ReportedUsage | undefined {
  const cost = usage?.cost ?? (isRecord(extra) ? optionalCount(extra.cost) : undefined);
  if (cost === undefined) return usage;
  return { ...usage, cost };
}

function modelName(info: JsonObject): string | undefined {
  const config = isRecord(info.config) ? info.config : {};
  const model = isRecord(config.model) ? config.model : {};
  return optionalString(model.model_name);
}
