import { type ModelRequest, ConfigError } from "../../types/index.js";
import type { SerializedRequest } from "../provider.js";
import { sortKeys } from "../shared/canonical-json.js";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";
import { convertToOpenAITools } from "./convert-to-openai-tools.js";
import { isOpenAIReasoningModel } from "./openai-reasoning-model.js";
import { vendorProfiles, type OpenAICompatibleVendor, type ReasoningRoundTrip } from "./vendor-profiles.js";

export interface BuildOpenAIRequestBodyInput {
  model: string;
  /** Decides the names of output-length and sampling fields (OpenAI's reasoning models differ). */
  vendor?: OpenAICompatibleVendor;
  stream: boolean;
  reasoningRoundTrip: ReasoningRoundTrip;
  request: ModelRequest;
  /** OpenAI's `prompt_cache_key` (written after `stream_options`; constant for a session). */
  promptCacheKey?: string;
}

/** Keys ctxkit writes itself; an `extraBody` entry with one of them would corrupt the layout. */
const reservedKeys = new Set(["model", "stream", "stream_options", "prompt_cache_key", "tools", "messages"]);

/**
 * Writes the Chat Completions body as the exact string sent. Key order is fixed — model, stream,
 * stream_options, max_tokens (max_completion_tokens for OpenAI's reasoning models), temperature, extraBody entries, tools, messages — with `messages`
 * LAST, so everything before the tail message is a byte-prefix of the next call's body.
 * `prefixLength` ends just after the last trajectory message.
 */
export function buildOpenAIRequestBody(input: BuildOpenAIRequestBodyInput): SerializedRequest {
  const { request } = input;
  const head: Record<string, unknown> = { model: input.model, stream: input.stream };
  // Without include_usage, streamed responses carry no token counts at all.
  if (input.stream) head.stream_options = { include_usage: true };
  if (input.promptCacheKey !== undefined && input.promptCacheKey !== "") head.prompt_cache_key = input.promptCacheKey;
  const { maxOutputTokens, temperature, extraBody } = request.settings;
  const reasoningModel = isOpenAIReasoningModel(input.vendor, input.model);
  if (maxOutputTokens !== undefined) head[reasoningModel ? "max_completion_tokens" : "max_tokens"] = checkedMaxTokens(maxOutputTokens);
  // OpenAI's reasoning models accept only their default temperature; callers that set one for other
  // models (the model summarizer asks for 0) would otherwise get a 400 there, so it is left out.
  if (temperature !== undefined) {
    const checked = checkedTemperature(temperature);
    if (!reasoningModel) head.temperature = checked;
  }
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
    reasoningOnToolCallTurns: input.vendor !== undefined && vendorProfiles[input.vendor].reasoningOnToolCallTurns === true,
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
