import { type ModelRequest, ConfigError } from "../../types/index.js";
import type { SerializedRequest } from "../provider.js";
import { sortKeys } from "../shared/canonical-json.js";
import { isOpenAIReasoningModel } from "../openai-compatible/openai-reasoning-model.js";
import { convertToResponsesInput } from "./convert-to-responses-input.js";
import { convertToResponsesTools } from "./convert-to-responses-tools.js";
import { reasoningEfforts, type ResponsesReasoningEffort } from "./reasoning-efforts.js";
import type { PromptCacheRetention } from "./responses-wire-types.js";

/** Reasoning settings of the Responses API (`reasoning: { effort, summary }`). */
export interface ResponsesReasoning {
  effort?: ResponsesReasoningEffort;
  summary?: "auto" | "concise" | "detailed";
}

/** What the body depends on besides the request: fixed for the provider's lifetime (the cache key for the session). */
export interface ResponsesBodySettings {
  model: string;
  promptCacheKey?: string;
  promptCacheRetention?: PromptCacheRetention;
  reasoning?: ResponsesReasoning;
  /** Server-side compaction (`context_management: [{ type: "compaction", compact_threshold }]`). */
  compactThreshold?: number;
  /** Send deferred tools with `defer_loading: true` and the hosted `tool_search` tool. */
  nativeToolSearch: boolean;
}

/** Keys ctxkit writes itself; an `extraBody` entry with one of them would corrupt the layout. */
const reservedKeys = new Set(["model", "stream", "store", "include", "instructions", "tools", "input", "prompt_cache_key", "context_management"]);

/**
 * Writes the Responses body as the exact string sent. Key order is fixed — model, stream, store,
 * include, prompt_cache_key, prompt_cache_retention, reasoning, max_output_tokens, temperature,
 * context_management, extraBody entries, instructions, tools, input — with `input` LAST, so
 * everything before the tail item is a byte-prefix of the next call's body.
 *
 * `store: false` with `include: ["reasoning.encrypted_content"]` is how Codex runs: the API keeps no
 * state, every call carries the whole trajectory, and reasoning items come back encrypted so they
 * can be sent again (reasoning models keep their reasoning across a tool loop only this way).
 */
export function buildResponsesRequestBody(request: ModelRequest, settings: ResponsesBodySettings): SerializedRequest {
  const head: Record<string, unknown> = { model: settings.model, stream: true, store: false, include: ["reasoning.encrypted_content"] };
  if (settings.promptCacheKey !== undefined) head.prompt_cache_key = settings.promptCacheKey;
  if (settings.promptCacheRetention !== undefined) head.prompt_cache_retention = settings.promptCacheRetention;
  const { maxOutputTokens, temperature, extraBody, reasoningEffort } = request.settings;
  // The request's effort (a chat's /effort) goes over the provider's; the summary setting stays.
  const reasoning = reasoningEffort === undefined ? settings.reasoning : { ...settings.reasoning, effort: checkedEffort(reasoningEffort) };
  if (reasoning !== undefined) head.reasoning = { ...reasoning };
  if (maxOutputTokens !== undefined) head.max_output_tokens = checkedMaxTokens(maxOutputTokens);
  // "Unsupported parameter: 'temperature' is not supported with this model." for the reasoning models.
  if (temperature !== undefined && !isOpenAIReasoningModel("openai", settings.model)) head.temperature = checkedTemperature(temperature);
  if (settings.compactThreshold !== undefined) head.context_management = [{ type: "compaction", compact_threshold: settings.compactThreshold }];
  for (const [key, value] of Object.entries(extraBody ?? {})) {
    if (reservedKeys.has(key)) {
      throw new ConfigError("request_invalid", `settings.extraBody.${key} would overwrite a field ctxkit writes itself. Remove it from extraBody.`);
    }
    if (value !== undefined) head[key] = sortKeys(value);
  }
  const deferred = settings.nativeToolSearch ? (request.deferredTools ?? []) : [];
  const input = convertToResponsesInput(request.system, request.messages, request.tail, deferred);
  if (input.instructions !== undefined) head.instructions = input.instructions;
  const tools = convertToResponsesTools(request.tools, deferred);
  if (tools.length > 0) head.tools = tools;

  const headJson = JSON.stringify(head);
  let body = `${headJson.slice(0, -1)},"input":[${input.prefix.join(",")}`;
  const prefixLength = body.length;
  if (input.tail !== undefined) body += `${input.prefix.length > 0 ? "," : ""}${input.tail}`;
  body += "]}";
  return { body, prefixLength };
}

function checkedEffort(value: string): ResponsesReasoningEffort {
  if ((reasoningEfforts as readonly string[]).includes(value)) return value as ResponsesReasoningEffort;
  throw new ConfigError("option_invalid", `settings.reasoningEffort must be one of ${reasoningEfforts.join(", ")}, got ${JSON.stringify(value)}.`);
}

/** "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16": smaller asks are raised to 16. */
const minimumMaxOutputTokens = 16;

function checkedMaxTokens(value: number): number {
  if (Number.isInteger(value) && value > 0) return Math.max(value, minimumMaxOutputTokens);
  throw new ConfigError("option_invalid", `settings.maxOutputTokens must be a positive integer, got ${value}.`);
}

function checkedTemperature(value: number): number {
  if (Number.isFinite(value) && value >= 0 && value <= 2) return value;
  throw new ConfigError("option_invalid", `settings.temperature must be a number from 0 to 2, got ${value}.`);
}
