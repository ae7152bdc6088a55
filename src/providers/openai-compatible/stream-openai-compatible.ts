import { ContextOverflowError, CtxkitError, type ModelRequest, type Usage, ProviderError } from "../../types/index.js";
import type { ProviderEvent } from "../provider.js";
import { isContextOverflowMessage } from "../shared/context-overflow.js";
import { abortError, fetchWithRetry } from "../shared/fetch-with-retry.js";
import { buildOpenAIRequestBody } from "./build-openai-request-body.js";
import { convertOpenAIUsage } from "./convert-openai-usage.js";
import { openAICacheKey, type ResolvedOpenAICompatibleSettings } from "./openai-compatible-settings.js";
import { OpenAIResponseAccumulator } from "./openai-response-accumulator.js";
import { readOpenAIResponseChunks } from "./read-openai-response-chunks.js";

/**
 * One Chat Completions call as provider events. Never throws: every failure — a request no vendor
 * accepts, HTTP errors after retries, a vendor error inside the stream, a cut connection, an
 * abort — ends the stream with one `error` event carrying the partial response.
 */
export async function* streamOpenAICompatible(
  settings: ResolvedOpenAICompatibleSettings,
  request: ModelRequest,
  signal?: AbortSignal,
): AsyncGenerator<ProviderEvent> {
  const label = settings.profile.label;
  const startedAt = performance.now();
  const accumulator = new OpenAIResponseAccumulator();
  let timeToFirstTokenMs: number | undefined;
  const usage = (): Usage => {
    const converted = convertOpenAIUsage(accumulator.usage, accumulator.timings);
    if (timeToFirstTokenMs !== undefined) converted.timeToFirstTokenMs = timeToFirstTokenMs;
    converted.latencyMs = performance.now() - startedAt;
    return converted;
  };

  try {
    if (signal?.aborted) throw abortError();
    const { body } = buildOpenAIRequestBody({
      model: settings.model,
      vendor: settings.profile.vendor,
      stream: settings.stream,
      reasoningRoundTrip: settings.reasoningRoundTrip,
      request,
      ...openAICacheKey(settings),
    });
    const response = await fetchWithRetry({
      fetch: settings.fetch,
      url: `${settings.baseURL}/chat/completions`,
      init: { method: "POST", headers: requestHeaders(settings), body },
      retry: settings.retry,
      timeouts: settings.timeouts,
      signal,
      providerLabel: label,
    });
    yield { type: "start" };
    for await (const chunk of readOpenAIResponseChunks(response, settings.stream, label, settings.maxEventCharacters)) {
      if (signal?.aborted) throw abortError();
      // Applied before an error is thrown: OpenRouter's mid-stream error chunk can carry the usage
      // of what was already billed, and the terminal error event must keep it.
      const events = accumulator.apply(chunk);
      if (chunk.error !== undefined) {
        yield* events;
        throw vendorError(chunk.error, label);
      }
      if (settings.stream && events.length > 0) timeToFirstTokenMs ??= performance.now() - startedAt;
      yield* events;
    }
    if (signal?.aborted) throw abortError();
    yield* accumulator.finish();
    yield { type: "done", response: accumulator.response(), usage: usage() };
  } catch (caught) {
    const error = toStreamError(caught, label, signal);
    const partial = { ...accumulator.response(), stopReason: error.code === "aborted" ? "aborted" : "error" } as const;
    yield { type: "error", error, partial, usage: usage() };
  }
}

function requestHeaders(settings: ResolvedOpenAICompatibleSettings): Headers {
  const headers = new Headers({ "content-type": "application/json" });
  if (settings.apiKey !== undefined) headers.set("authorization", `Bearer ${settings.apiKey}`);
  const affinity = settings.profile.vendor === "openai" ? undefined : settings.cacheKey?.();
  if (affinity !== undefined && affinity !== "") headers.set("x-session-affinity", affinity);
  for (const [name, value] of Object.entries(settings.headers)) headers.set(name, value);
  return headers;
}

/** A `{"error": …}` body sent with status 200, as a data event or as the whole JSON response. */
function vendorError(error: { message: string; raw: string }, label: string): CtxkitError {
  if (isContextOverflowMessage(error.raw)) return new ContextOverflowError(error.message, error.raw);
  return new ProviderError("provider_http_error", `${label} reported an error in its response: ${error.message}`);
}

function toStreamError(caught: unknown, label: string, signal: AbortSignal | undefined): CtxkitError {
  // The body read rejects with the runtime's own AbortError; report the caller's abort as ours.
  if (signal?.aborted) return caught instanceof CtxkitError && caught.code === "aborted" ? caught : abortError();
  if (caught instanceof CtxkitError) return caught;
  return new ProviderError(
    "provider_connection_error",
    `The connection to ${label} broke before the response was complete (${describe(caught)}). Retry the request.`,
    { cause: caught, isRetryable: true },
  );
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : "";
  return detail === "" ? error.message : `${error.message}: ${detail}`;
}
