import { checkBaseURL } from "../shared/check-base-url.js";
import { addUsage, ConfigError, CtxkitError, type ModelRequest, type Usage } from "../../types/index.js";
import { providerDefaultEffort, type Provider, type ProviderEvent, type SerializedRequest } from "../provider.js";
import type { RetryOptions } from "../shared/fetch-with-retry.js";
import { resolveMaxEventCharacters } from "../shared/server-sent-events.js";
import { resolveStreamTimeouts, type StreamTimeouts } from "../shared/stream-timeouts.js";
import { buildResponsesRequestBody, type ResponsesBodySettings, type ResponsesReasoning } from "./build-responses-request-body.js";
import { reasoningEfforts as efforts } from "./reasoning-efforts.js";
import type { PromptCacheRetention } from "./responses-wire-types.js";
import { streamOpenAIResponses } from "./stream-openai-responses.js";
import { compactResponses, type ResponsesCompaction } from "./compact-responses.js";

export interface OpenAIResponsesSettings {
  /** e.g. "gpt-5.1-codex-max". */
  model: string;
  /** Defaults to the OPENAI_API_KEY environment variable. */
  apiKey?: string;
  /** Defaults to https://api.openai.com/v1 (requests go to `<baseURL>/responses`). */
  baseURL?: string;
  /** Extra headers; they override ctxkit's own. */
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
  retry?: RetryOptions;
  /** First-byte and idle-stream limits (default 60 s each); each ends the call with a retryable `provider_timeout`. */
  timeouts?: StreamTimeouts;
  /** The most characters one server-sent event may hold (default 64 Mi); a larger one ends the call with `provider_event_too_large`. */
  maxEventCharacters?: number;
  /**
   * `prompt_cache_key`: requests with the same key are routed to the same cache ("use it to
   * improve cache hit rates", OpenAI's prompt-caching guide). A function is read on every call, so
   * the CLI can pass the session id once the session has started. Keep it fixed for a session.
   */
  promptCacheKey?: string | (() => string | undefined);
  /** `prompt_cache_retention`: "in-memory" (OpenAI's default) or "24h" (extended prompt caching). */
  promptCacheRetention?: PromptCacheRetention;
  reasoning?: ResponsesReasoning;
  /**
   * Native tool search (opt-in): `request.deferredTools` go out with `defer_loading: true` beside
   * the hosted `tool_search` tool, and the model calls found tools directly.
   */
  toolSearch?: boolean;
  /**
   * Server-side compaction: `context_management: [{ type: "compaction", compact_threshold }]`. Past
   * the threshold the API summarises the context itself and returns an opaque `compaction` item,
   * which ctxkit keeps byte-exact and sends back. A declared cache break (see the compaction policy).
   */
  compactThreshold?: number;
  /** Where the API key is looked up (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The Responses provider, plus the on-demand compaction call the API offers beside `/responses`. */
export interface OpenAIResponsesProvider extends Provider {
  /**
   * `POST <baseURL>/responses/compact` with the request's instructions and trajectory: the server
   * returns the window that replaces it (kept user messages and an opaque `compaction` item). Use it
   * through `createResponsesCompactPolicy`, which records the replacement as a declared cache break.
   * Throws a typed ProviderError.
   */
  compact(request: ModelRequest, signal?: AbortSignal): Promise<ResponsesCompaction>;
}

const defaultBaseURL = "https://api.openai.com/v1";

/**
 * A provider for OpenAI's Responses API over plain fetch, stateless the way Codex runs it
 * (`store: false`, encrypted reasoning sent back). Fails fast (before any I/O) on a missing key or
 * invalid settings; once `stream` is called every failure is a terminal `error` event.
 */
export function createOpenAIResponses(settings: OpenAIResponsesSettings): OpenAIResponsesProvider {
  if (typeof settings.model !== "string" || settings.model.trim() === "") {
    throw new ConfigError("model_missing", 'createOpenAIResponses needs a model, e.g. { model: "gpt-5.1-codex-max" }.');
  }
  const baseURL = (settings.baseURL === undefined ? defaultBaseURL : checkBaseURL(settings.baseURL, "createOpenAIResponses", "https://api.openai.com/v1")).replace(/\/+$/, "");
  const apiKey = (settings.apiKey ?? (settings.env ?? process.env).OPENAI_API_KEY)?.trim();
  // A base URL other than OpenAI's is a proxy or a local server (often key-less): no key is needed then.
  if ((apiKey === undefined || apiKey === "") && baseURL === defaultBaseURL) {
    throw new ConfigError("api_key_missing", "No OpenAI API key. Set the OPENAI_API_KEY environment variable, or pass `apiKey` to createOpenAIResponses.");
  }
  validateSettings(settings);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    ...settings.headers,
  };
  const fetchFunction = settings.fetch ?? globalThis.fetch;
  const timeouts = resolveStreamTimeouts(settings.timeouts, "createOpenAIResponses");
  const maxEventCharacters = resolveMaxEventCharacters(settings.maxEventCharacters, "createOpenAIResponses");
  const bodySettings = (): ResponsesBodySettings => {
    const key = typeof settings.promptCacheKey === "function" ? settings.promptCacheKey() : settings.promptCacheKey;
    return {
      model: settings.model,
      nativeToolSearch: settings.toolSearch === true,
      ...(key === undefined || key === "" ? {} : { promptCacheKey: key }),
      ...(settings.promptCacheRetention === undefined ? {} : { promptCacheRetention: settings.promptCacheRetention }),
      ...(settings.reasoning === undefined ? {} : { reasoning: settings.reasoning }),
      ...(settings.compactThreshold === undefined ? {} : { compactThreshold: settings.compactThreshold }),
    };
  };

  // What /responses/compact billed, not yet reported: the next call's usage carries it (as Anthropic's
  // compaction iterations are summed into the call they ran in), so a ledger built from the calls bills it.
  let pendingCompactionUsage: Usage | undefined;

  return {
    specificationVersion: "v1",
    name: "openai-responses",
    model: settings.model,
    baseURL,
    ...(settings.toolSearch === true ? { nativeToolSearch: true } : {}),
    // In-memory entries "stay active for 5 to 10 minutes of inactivity" (the shorter is the one to rely on); "24h" keeps them a day.
    cacheLifetimeMs: settings.promptCacheRetention === "24h" ? 24 * 60 * 60_000 : 5 * 60_000,
    // Without a setting the API uses the model's own effort; a request's `reasoningEffort` goes over either.
    reasoningEffort: settings.reasoning?.effort ?? providerDefaultEffort,
    reasoningEfforts: efforts,
    stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ProviderEvent> {
      return streamRequest(request, signal);
    },
    serialize(request: ModelRequest): SerializedRequest {
      return buildResponsesRequestBody(request, bodySettings());
    },
    async compact(request: ModelRequest, signal?: AbortSignal): Promise<ResponsesCompaction> {
      const retry = settings.retry ?? {};
      const compaction = await compactResponses({ fetch: fetchFunction, url: `${baseURL}/responses/compact`, headers, model: settings.model, request, retry, timeouts, ...(signal ? { signal } : {}) });
      pendingCompactionUsage = pendingCompactionUsage === undefined ? compaction.usage : addUsage(pendingCompactionUsage, compaction.usage);
      return compaction;
    },
  };

  async function* streamRequest(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ProviderEvent> {
    let body: string;
    try {
      body = buildResponsesRequestBody(request, bodySettings()).body;
    } catch (error) {
      // A request that cannot be serialised (a bad tool schema, a cyclic extraBody value) still ends as an event.
      const detail = error instanceof Error ? error.message : String(error);
      const failure = error instanceof CtxkitError ? error : new ConfigError("request_invalid", `The Responses request could not be serialised: ${detail}`, { cause: error });
      yield { type: "error", error: failure, partial: { content: [], stopReason: "error" } };
      return;
    }
    for await (const event of streamOpenAIResponses({ fetch: fetchFunction, url: `${baseURL}/responses`, headers, body, retry: settings.retry ?? {}, timeouts, maxEventCharacters, ...(signal ? { signal } : {}) })) {
      if ((event.type === "done" || event.type === "error") && event.usage !== undefined && pendingCompactionUsage !== undefined) {
        const usage = withCompaction(event.usage, pendingCompactionUsage);
        pendingCompactionUsage = undefined;
        yield { ...event, usage };
        continue;
      }
      yield event;
    }
  }
}

const retentions: readonly string[] = ["in-memory", "24h"];
const summaries: readonly string[] = ["auto", "concise", "detailed"];

function validateSettings(settings: OpenAIResponsesSettings): void {
  if (settings.promptCacheRetention !== undefined && !retentions.includes(settings.promptCacheRetention)) {
    throw new ConfigError("option_invalid", `promptCacheRetention must be "in-memory" or "24h", got ${JSON.stringify(settings.promptCacheRetention)}.`);
  }
  const { effort, summary } = settings.reasoning ?? {};
  if (effort !== undefined && !efforts.includes(effort)) throw new ConfigError("option_invalid", `reasoning.effort must be one of ${efforts.join(", ")}, got ${JSON.stringify(effort)}.`);
  if (summary !== undefined && !summaries.includes(summary)) throw new ConfigError("option_invalid", `reasoning.summary must be one of ${summaries.join(", ")}, got ${JSON.stringify(summary)}.`);
  const threshold = settings.compactThreshold;
  if (threshold !== undefined && !(Number.isInteger(threshold) && threshold > 0)) {
    throw new ConfigError("option_invalid", `compactThreshold must be a positive number of tokens, got ${String(threshold)}.`);
  }
  const key = settings.promptCacheKey;
  if (key !== undefined && typeof key !== "string" && typeof key !== "function") throw new ConfigError("option_invalid", "promptCacheKey must be a string or a function returning one.");
}

/**
 * A call's usage with a compaction pass's added: billed in the input and output counts, and named
 * in `serverContext` so the cache-miss check does not take the pass's tokens for the call's prompt.
 */
function withCompaction(usage: Usage, compaction: Usage): Usage {
  const { timeToFirstTokenMs, latencyMs } = usage;
  const server = usage.serverContext;
  return {
    ...addUsage(usage, compaction),
    serverContext: {
      compactionInputTokens: (server?.compactionInputTokens ?? 0) + compaction.inputTokens,
      compactionOutputTokens: (server?.compactionOutputTokens ?? 0) + compaction.outputTokens,
      edits: server?.edits ?? [],
    },
    ...(timeToFirstTokenMs === undefined ? {} : { timeToFirstTokenMs }),
    ...(latencyMs === undefined ? {} : { latencyMs }),
  };
}
