import { type ModelRequest, ConfigError } from "../../types/index.js";
import type { SerializedRequest } from "../provider.js";
import { sortKeys } from "../shared/canonical-json.js";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";
import { convertToOpenAITools } from "./convert-to-openai-tools.js";
import type { ReasoningRoundTrip } from "./vendor-profiles.js";

export interface BuildOpenAIRequestBodyInput {
  model: string;
  stream: boolean;
  reasoningRoundTrip: ReasoningRoundTrip;
  request: ModelRequest;
}

/** Keys ctxkit writes itself; an `extraBody` entry with one of them would corrupt the layout. */
const reservedKeys = new Set(["model", "stream", "stream_options", "tools", "messages"]);

/**
 * Writes the Chat Completions body as the exact string sent. Key order is fixed — model, stream,
 * stream_options, max_tokens, temperature, extraBody entries, tools, messages — with `messages`
 * LAST, so everything before the tail message is a byte-prefix of the next call's body.
 * `prefixLength` ends just after the last trajectory message.
 */
export function buildOpenAIRequestBody(input: BuildOpenAIRequestBodyInput): SerializedRequest {
  const { request } = input;
  const head: Record<string, unknown> = { model: input.model, stream: input.stream };
  // Without include_usage, streamed responses carry no token counts at all.
  if (input.stream) head.stream_options = { include_usage: true };
  const { maxOutputTokens, temperature, extraBody } = request.settings;
  if (maxOutputTokens !== undefined) head.max_tokens = checkedMaxTokens(maxOutputTokens);
  if (temperature !== undefined) head.temperature = checkedTemperature(temperature);
  for (const [key, value] of Object.entries(extraBody ?? {})) {
    if (reservedKeys.has(key)) {
      throw new ConfigError(
        "request_invalid",
        `settings.extraBody.${key} would overwrite a field ctxkit writes itself. Remove it from extraBody.`,
      );
    }
    if (value !== undefined) head[key] = sortKeys(value);
  }
  const tools = convertToOpenAITools(request.tools);
  if (tools.length > 0) head.tools = tools;

  const { prefix, tail } = convertToOpenAIMessages({
    system: request.system,
    messages: request.messages,
    tail: request.tail,
    reasoningRoundTrip: input.reasoningRoundTrip,
  });
  const headJson = JSON.stringify(head);
  let body = `${headJson.slice(0, -1)},"messages":[${prefix.map((message) => JSON.stringify(message)).join(",")}`;
  const prefixLength = body.length;
  if (tail !== undefined) body += `${prefix.length > 0 ? "," : ""}${JSON.stringify(tail)}`;
  body += "]}";
  return { body, prefixLength };
}

function checkedMaxTokens(value: number): number {
  if (Number.isInteger(value) && value > 0) return value;
  throw new ConfigError("option_invalid", `settings.maxOutputTokens must be a positive integer, got ${value}.`);
}

function checkedTemperature(value: number): number {
  if (Number.isFinite(value) && value >= 0) return value;
  throw new ConfigError("option_invalid", `settings.temperature must be a number ≥ 0, got ${value}.`);
}
