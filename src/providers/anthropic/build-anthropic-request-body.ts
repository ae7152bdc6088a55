import { type ModelRequest, ConfigError } from "../../types/index.js";
import type { AnthropicMessage } from "./anthropic-wire-types.js";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages.js";
import { convertToAnthropicSystem } from "./convert-to-anthropic-system.js";
import { convertToAnthropicTools, convertToDeferredTools } from "./convert-to-anthropic-tools.js";
import { placeCacheControl, type AnthropicCacheTtl } from "./place-cache-control.js";
import { compactionNow, convertContextManagement, type AnthropicContextManagement } from "./anthropic-context-management.js";
import { anthropicEfforts, type AnthropicEffort } from "./anthropic-efforts.js";

export interface AnthropicBodySettings {
  model: string;
  /** Used when the request does not set `maxOutputTokens` (Anthropic requires `max_tokens`). */
  maxOutputTokens: number;
  thinking?: { budgetTokens: number };
  /** `output_config.effort` when the request does not set `reasoningEffort`; absent: none is sent (the model's default). */
  effort?: AnthropicEffort;
  cacheTtl: AnthropicCacheTtl;
  /** Native tool search: `request.deferredTools` go out with `defer_loading: true` beside this server tool. */
  toolSearch?: AnthropicToolSearch;
  /** Server-side context editing and compaction, sent as `context_management` (fixed for the session). */
  contextManagement?: AnthropicContextManagement;
}

/** Which of Anthropic's tool-search server tools searches the deferred tools. */
export type AnthropicToolSearch = "bm25" | "regex";

export interface AnthropicBodyOptions {
  /** `cache_control` markers are sent, but left out of the serialized prompt (see serialize). */
  includeCacheControl: boolean;
  /** `context_management` is sent, but left out of the serialized prompt (see serialize). */
  includeContextManagement?: boolean;
  includeTail: boolean;
}

export type AnthropicRequestBody = { [key: string]: unknown; messages: AnthropicMessage[] };

/** Keys ctxkit computes from the request; `extraBody` cannot replace them. */
const reservedKeys = new Set(["stream", "system", "tools", "messages"]);

/**
 * The Messages API body with a fixed key order — model, max_tokens, stream, thinking, temperature,
 * output_config, context_management, extraBody entries, system, tools, messages — so the same request
 * always gives the same bytes and the part that grows (messages) comes last. `output_config` is sent
 * only with an effort (the request's `reasoningEffort`, else the settings'): a body without one is
 * byte for byte what it was before efforts existed. `system` is omitted when the system prompt is
 * empty and `tools` when there are none (the API rejects empty text blocks; an empty tools array is noise).
 * An `extraBody` key that matches model, max_tokens, thinking or temperature replaces that value in
 * place; an `extraBody.output_config` object (e.g. a `format`) is merged with the effort, which stays
 * the one the session records.
 */
export function buildAnthropicRequestBody(
  request: ModelRequest,
  settings: AnthropicBodySettings,
  options: AnthropicBodyOptions,
): AnthropicRequestBody {
  const tools = convertToAnthropicTools(request.tools);
  const system = convertToAnthropicSystem(request.system);
  const conversion = convertToAnthropicMessages(request.messages, options.includeTail ? request.tail : undefined);
  const marked = options.includeCacheControl
    ? placeCacheControl({
        tools,
        system,
        hasStaticSystemBlock: request.system.staticText !== "",
        conversion,
        breakpoints: request.cacheBreakpoints,
        ttl: settings.cacheTtl,
      })
    : { tools, system, messages: conversion.messages };

  const body: Record<string, unknown> = {
    model: settings.model,
    max_tokens: request.settings.maxOutputTokens ?? settings.maxOutputTokens,
    stream: true,
  };
  if (settings.thinking !== undefined) {
    // Both are 400s from the API ("temperature may only be set to 1 when thinking is enabled";
    // "max_tokens must be greater than thinking.budget_tokens"): fail before sending, with the fix.
    const temperature = request.settings.temperature;
    if (temperature !== undefined && temperature !== 1) {
      throw new ConfigError("request_invalid", `Anthropic accepts only temperature 1 with extended thinking, got ${temperature}. Remove the temperature or the thinking setting.`);
    }
    if ((body.max_tokens as number) <= settings.thinking.budgetTokens) {
      throw new ConfigError(
        "request_invalid",
        `max_tokens (${String(body.max_tokens)}) must be greater than the thinking budget (${settings.thinking.budgetTokens}). Raise maxOutputTokens or lower the budget.`,
      );
    }
    body.thinking = { type: "enabled", budget_tokens: settings.thinking.budgetTokens };
  }
  if (request.settings.temperature !== undefined) body.temperature = request.settings.temperature;
  const reasoningEffort = request.settings.reasoningEffort;
  // The request's effort (a chat's /effort, a resumed session's recorded one) goes over the provider's.
  const effort = reasoningEffort === undefined ? settings.effort : checkedAnthropicEffort(reasoningEffort, "settings.reasoningEffort");
  if (effort !== undefined) body.output_config = { effort };
  const management = contextManagementOf(request, settings);
  if (management !== undefined && options.includeContextManagement !== false) body.context_management = convertContextManagement(management);
  for (const [key, value] of Object.entries(request.settings.extraBody ?? {})) {
    if (reservedKeys.has(key) || value === undefined) continue;
    body[key] = key === "output_config" && effort !== undefined && isPlainObject(value) ? { ...value, effort } : value;
  }
  if (marked.system.length > 0) body.system = marked.system;
  // Deferred tools and the search server tool go after the cache breakpoint on the last regular tool:
  // they are not rendered into the prompt until found, so they never move the cached prefix.
  const allTools = [...marked.tools, ...convertToDeferredTools(request, settings.toolSearch)];
  if (allTools.length > 0) body.tools = allTools;
  return { ...body, messages: marked.messages };
}

/** `value` as an Anthropic effort, else `option_invalid` naming the setting it came from (`effort`, `settings.reasoningEffort`). */
export function checkedAnthropicEffort(value: string, setting: string): AnthropicEffort {
  if ((anthropicEfforts as readonly string[]).includes(value)) return value as AnthropicEffort;
  throw new ConfigError("option_invalid", `${setting} must be one of Anthropic's efforts ${anthropicEfforts.join(", ")}, got ${JSON.stringify(value)}. Leave it unset for the model's default.`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The context management a request goes out with: the session's, or this call's compaction on request. */
export function contextManagementOf(request: ModelRequest, settings: AnthropicBodySettings): AnthropicContextManagement | undefined {
  return request.serverCompaction === undefined ? settings.contextManagement : compactionNow(settings.contextManagement, request.serverCompaction);
}
