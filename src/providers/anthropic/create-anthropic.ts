import { checkBaseURL } from "../shared/check-base-url.js";
import { CtxkitError, type ModelRequest, ConfigError } from "../../types/index.js";
import type { RetryOptions } from "../shared/fetch-with-retry.js";
import { resolveMaxEventCharacters } from "../shared/server-sent-events.js";
import { resolveStreamTimeouts, type StreamTimeouts } from "../shared/stream-timeouts.js";
import { providerDefaultEffort, type Provider, type ProviderEvent, type SerializedRequest } from "../provider.js";
import { buildAnthropicRequestBody, checkedAnthropicEffort, contextManagementOf, type AnthropicBodySettings, type AnthropicToolSearch } from "./build-anthropic-request-body.js";
import { contextManagementBetas, convertContextManagement, minimumCompactionTrigger, type AnthropicContextManagement } from "./anthropic-context-management.js";
import { anthropicEfforts, type AnthropicEffort } from "./anthropic-efforts.js";
import type { AnthropicCacheTtl } from "./place-cache-control.js";
import { serializeAnthropicRequest } from "./serialize-anthropic-request.js";
import { streamAnthropic } from "./stream-anthropic.js";

export interface AnthropicSettings {
  /** e.g. "claude-sonnet-4-5". */
  model: string;
  /** Defaults to the ANTHROPIC_API_KEY environment variable. */
  apiKey?: string;
  /** Defaults to https://api.anthropic.com/v1; a URL without `/v1` (Anthropic's convention) gets it added. */
  baseURL?: string;
  /** Extra headers, e.g. `{ "anthropic-beta": "…" }`; they may override the defaults. */
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
  /** `max_tokens` when the request does not set `maxOutputTokens` (default 8192; Anthropic requires one). */
  maxOutputTokens?: number;
  /** Extended thinking with this token budget (at least 1024, below max_tokens). */
  thinking?: { budgetTokens: number };
  /**
   * `output_config: { effort }`, how many tokens the model spends on an answer (thinking, text and
   * tool calls): "low", "medium", "high", "xhigh" or "max". Unset, none is sent and the model's
   * default applies ("high" on most). A request's `settings.reasoningEffort` goes over it.
   */
  effort?: AnthropicEffort;
  /** Lifetime of cache entries: "5m" (default, writes cost 1.25× input) or "1h" (writes cost 2×). */
  cacheTtl?: AnthropicCacheTtl;
  retry?: RetryOptions;
  /** First-byte and idle-stream limits (default 60 s each); each ends the call with a retryable `provider_timeout`. */
  timeouts?: StreamTimeouts;
  /** The most characters one server-sent event may hold (default 64 Mi); a larger one ends the call with `provider_event_too_large`. */
  maxEventCharacters?: number;
  /**
   * Native tool search (opt-in): deferred tools are sent with `defer_loading: true` beside Anthropic's
   * BM25 or regex tool-search server tool, and the model calls found tools directly. Adds the
   * `anthropic-beta: advanced-tool-use-2025-11-20` header (override it with `headers`).
   */
  toolSearch?: AnthropicToolSearch;
  /**
   * Server-side context management (opt-in): context editing (`clear_tool_uses_20250919`,
   * `clear_thinking_20251015`) and compaction (`compact_20260112`), with their beta headers. The
   * server's own summarising is billed: the usage then counts `usage.iterations`.
   */
  contextManagement?: AnthropicContextManagement;
  /** Value of the `anthropic-version` header (default "2023-06-01"). */
  anthropicVersion?: string;
}

const defaultBaseURL = "https://api.anthropic.com/v1";
const defaultMaxOutputTokens = 8192;
/** "budget_tokens: Must be ≥1024 and less than max_tokens" (https://docs.anthropic.com/en/api/messages). */
const minThinkingBudget = 1024;

/**
 * A provider for Anthropic's Messages API over plain fetch. Fails fast (before any I/O) on a missing
 * key or invalid settings; once `stream` is called every failure is a terminal `error` event.
 */
export function createAnthropic(settings: AnthropicSettings): Provider {
  if (typeof settings.model !== "string" || settings.model === "") {
    throw new ConfigError("model_missing", "createAnthropic needs a model, e.g. { model: \"claude-sonnet-4-5\" }.");
  }
  const apiKey = settings.apiKey ?? process.env.ANTHROPIC_API_KEY;
  if (apiKey === undefined || apiKey === "") {
    throw new ConfigError(
      "api_key_missing",
      "No Anthropic API key. Set the ANTHROPIC_API_KEY environment variable, or pass `apiKey` to createAnthropic.",
    );
  }
  const bodySettings: AnthropicBodySettings = {
    model: settings.model,
    maxOutputTokens: settings.maxOutputTokens ?? defaultMaxOutputTokens,
    cacheTtl: settings.cacheTtl ?? "5m",
    ...(settings.thinking === undefined ? {} : { thinking: settings.thinking }),
    ...(settings.effort === undefined ? {} : { effort: settings.effort }),
    ...(settings.toolSearch === undefined ? {} : { toolSearch: settings.toolSearch }),
    ...(settings.contextManagement === undefined ? {} : { contextManagement: settings.contextManagement }),
  };
  validateSettings(bodySettings);
  // Invalid edits fail here, before any I/O.
  if (settings.contextManagement !== undefined) convertContextManagement(settings.contextManagement);
  // The betas a request needs: a call that asks to compact now needs compaction's even when the
  // session's settings do not compact.
  const headersFor = (request: ModelRequest): Record<string, string> => {
    const management = contextManagementOf(request, bodySettings);
    const betas = [
      // "The tool search tool is currently in public beta" (the tool-search-tool page of Anthropic's docs).
      ...(settings.toolSearch === undefined ? [] : ["advanced-tool-use-2025-11-20"]),
      ...(management === undefined ? [] : contextManagementBetas(management)),
    ];
    return {
      "x-api-key": apiKey,
      "anthropic-version": settings.anthropicVersion ?? "2023-06-01",
      "content-type": "application/json",
      ...(betas.length === 0 ? {} : { "anthropic-beta": betas.join(",") }),
      ...settings.headers,
    };
  };

  const url = messagesURL(settings.baseURL === undefined ? defaultBaseURL : checkBaseURL(settings.baseURL, "createAnthropic", "https://api.anthropic.com"));
  const fetchFunction = settings.fetch ?? globalThis.fetch;
  const timeouts = resolveStreamTimeouts(settings.timeouts, "createAnthropic");
  const maxEventCharacters = resolveMaxEventCharacters(settings.maxEventCharacters, "createAnthropic");

  return {
    specificationVersion: "v1",
    name: "anthropic",
    baseURL: settings.baseURL ?? defaultBaseURL,
    model: settings.model,
    ...(settings.toolSearch === undefined ? {} : { nativeToolSearch: true }),
    // "The cache has a 5-minute lifetime, refreshed each time the cached content is used" (1 hour with ttl "1h").
    cacheLifetimeMs: bodySettings.cacheTtl === "1h" ? 60 * 60_000 : 5 * 60_000,
    // compact_20260112 on request (`run(input, { compact })`); the API summarises prompts from 50 000 tokens on.
    compactsOnRequest: true,
    compactionMinimumTokens: minimumCompactionTrigger,
    // The max_tokens a request without maxOutputTokens is sent with: what a budget reserves for it.
    maxOutputTokens: bodySettings.maxOutputTokens,
    // Without a setting the API uses the model's own effort; a request's `reasoningEffort` goes over either.
    reasoningEffort: settings.effort ?? providerDefaultEffort,
    reasoningEfforts: anthropicEfforts,
    stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ProviderEvent> {
      return streamRequest(request, signal);
    },
    serialize(request: ModelRequest): SerializedRequest {
      return serializeAnthropicRequest(request, bodySettings);
    },
  };

  async function* streamRequest(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ProviderEvent> {
    let body: string;
    try {
      body = JSON.stringify(buildAnthropicRequestBody(request, bodySettings, { includeCacheControl: true, includeTail: true }));
    } catch (error) {
      // A request that cannot be serialised (a cyclic extraBody value) must still end as an event.
      const detail = error instanceof Error ? error.message : String(error);
      const failure = error instanceof CtxkitError ? error : new ConfigError("request_invalid", `The Anthropic request could not be serialised: ${detail}`, { cause: error });
      yield { type: "error", error: failure, partial: { content: [], stopReason: "error" } };
      return;
    }
    yield* streamAnthropic({ fetch: fetchFunction, url, headers: headersFor(request), body, retry: settings.retry ?? {}, timeouts, maxEventCharacters, ...(signal ? { signal } : {}) });
  }
}

/**
 * Anthropic's own convention (its SDKs, ANTHROPIC_BASE_URL) is a base URL without `/v1`, to which
 * `/v1/messages` is added; ctxkit's default ends in `/v1`. Both are accepted.
 */
export function messagesURL(baseURL: string): string {
  const trimmed = baseURL.replace(/\/+$/, "");
  return /\/v1$/.test(trimmed) ? `${trimmed}/messages` : `${trimmed}/v1/messages`;
}

function validateSettings(settings: AnthropicBodySettings): void {
  if (!Number.isInteger(settings.maxOutputTokens) || settings.maxOutputTokens < 1) {
    throw new ConfigError("option_invalid", `maxOutputTokens must be a positive integer, got ${settings.maxOutputTokens}.`);
  }
  if (settings.cacheTtl !== "5m" && settings.cacheTtl !== "1h") {
    throw new ConfigError("option_invalid", `cacheTtl must be "5m" or "1h", got ${JSON.stringify(settings.cacheTtl)}.`);
  }
  if (settings.effort !== undefined) checkedAnthropicEffort(settings.effort, "effort");
  const budget = settings.thinking?.budgetTokens;
  if (budget === undefined) return;
  if (!Number.isInteger(budget) || budget < minThinkingBudget || budget >= settings.maxOutputTokens) {
    throw new ConfigError(
      "option_invalid",
      `thinking.budgetTokens must be an integer ≥ ${minThinkingBudget} and below maxOutputTokens (${settings.maxOutputTokens}), got ${budget}. ` +
        "Lower the budget or raise maxOutputTokens.",
    );
  }
}
