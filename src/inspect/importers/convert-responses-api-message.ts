import type { AssistantMessage, AssistantPart, Message, MessageMeta } from "../../types/index.js";
import type { ReportedUsage } from "../imported-transcript.js";
import { convertCodexResponseItem } from "./convert-codex-response-item.js";
import { isRecord, optionalCount, withoutUndefined, type JsonObject } from "./json-guards.js";

export type ResponsesApiMessage =
  | { kind: "response"; message: AssistantMessage; usage: ReportedUsage | undefined; skipped: string[] }
  | { kind: "input"; message: Message }
  | { kind: "not-responses" }
  | { kind: "invalid"; reason: string };

/**
 * Converts a message an agent stored in OpenAI Responses API shape (mini-swe-agent's
 * `litellm_response` model): a whole response object (`object: "response"`, its `output` items are
 * the assistant message, its `usage` the call's) or an input item (`function_call_output`, a
 * `type: "message"` user turn). Items go through the Codex rollout converter, which reads the same
 * item types. `not-responses` means the message is in Chat Completions shape.
 */
export function convertResponsesApiMessage(raw: unknown, meta: MessageMeta, toolNames: Map<string, string>): ResponsesApiMessage {
  if (!isRecord(raw)) return { kind: "not-responses" };
  if (raw.object === "response" && Array.isArray(raw.output)) {
    const parts: AssistantPart[] = [];
    const skipped: string[] = [];
    for (const item of raw.output.filter(isRecord)) {
      const converted = convertCodexResponseItem(item, meta, toolNames);
      if (converted.kind === "output") parts.push(...converted.parts);
      else if (converted.kind === "skipped") skipped.push(converted.type);
      else if (converted.kind === "invalid") return converted;
    }
    return { kind: "response", message: { role: "assistant", content: parts, meta: { ...meta, origin: "model" } }, usage: convertResponsesUsage(raw.usage), skipped };
  }
  if (raw.role === undefined && typeof raw.type === "string") {
    const converted = convertCodexResponseItem(raw as JsonObject, meta, toolNames);
    if (converted.kind === "input") return converted;
    if (converted.kind === "invalid") return converted;
    return { kind: "invalid", reason: `a stored ${raw.type} item is not an input the next call could have seen` };
  }
  if (raw.type === "message" && Array.isArray(raw.content)) {
    const converted = convertCodexResponseItem(raw as JsonObject, meta, toolNames);
    return converted.kind === "input" || converted.kind === "invalid" ? converted : { kind: "not-responses" };
  }
  return { kind: "not-responses" };
}

/** Responses API usage: `input_tokens` is the whole prompt, `input_tokens_details.cached_tokens` the cached part. */
function convertResponsesUsage(raw: unknown): ReportedUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const details = isRecord(raw.input_tokens_details) ? raw.input_tokens_details : {};
  const usage = withoutUndefined<ReportedUsage>({
    promptTokens: optionalCount(raw.input_tokens),
    cachedTokens: optionalCount(details.cached_tokens),
    completionTokens: optionalCount(raw.output_tokens),
  });
  return Object.keys(usage).length === 0 ? undefined : usage;
}
