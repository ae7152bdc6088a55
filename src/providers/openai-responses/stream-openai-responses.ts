import { CtxkitError, ProviderError, type Usage } from "../../types/index.js";
import type { ProviderEvent } from "../provider.js";
import { safeParseJson } from "../shared/canonical-json.js";
import { keepBodyHead, notAnEventStream } from "../shared/keep-body-head.js";
import { abortError, fetchWithRetry, type RetryOptions } from "../shared/fetch-with-retry.js";
import { parseServerSentEvents } from "../shared/server-sent-events.js";
import type { StreamTimeouts } from "../shared/stream-timeouts.js";
import { ResponsesStreamAccumulator } from "./responses-stream-accumulator.js";

export interface StreamOpenAIResponsesInput {
  fetch: typeof globalThis.fetch;
  url: string;
  headers: Record<string, string>;
  body: string;
  retry: RetryOptions;
  timeouts: Required<StreamTimeouts>;
  /** The most characters one event may hold (default 64 Mi). */
  maxEventCharacters?: number;
  signal?: AbortSignal;
}

const label = "OpenAI Responses";

/**
 * One streamed Responses call. Never throws: HTTP failures (after fetchWithRetry's retries, and its
 * overflow detection on 400 `context_length_exceeded`), an `error` or `response.failed` event, a cut
 * connection and aborts all end the stream with one `error` event carrying the partial response.
 */
export async function* streamOpenAIResponses(input: StreamOpenAIResponsesInput): AsyncGenerator<ProviderEvent> {
  const startedAt = performance.now();
  let firstTokenAt: number | undefined;
  const accumulator = new ResponsesStreamAccumulator();
  const timed = (usage: Usage): Usage => ({
    ...usage,
    ...(firstTokenAt === undefined ? {} : { timeToFirstTokenMs: Math.round(firstTokenAt - startedAt) }),
    latencyMs: Math.round(performance.now() - startedAt),
  });
  try {
    if (input.signal?.aborted) throw abortError();
    const response = await fetchWithRetry({
      fetch: input.fetch,
      url: input.url,
      init: { method: "POST", headers: input.headers, body: input.body },
      retry: input.retry,
      timeouts: input.timeouts,
      signal: input.signal,
      providerLabel: label,
    });
    yield { type: "start" };
    if (response.body === null) throw new ProviderError("provider_response_invalid", `${label} answered 200 without a body; expected an SSE stream.`);
    const watched = keepBodyHead(response.body as unknown as AsyncIterable<Uint8Array>);
    let events = 0;
    for await (const data of readEvents(watched.body, input.maxEventCharacters)) {
      events += 1;
      if (data === "[DONE]") break;
      const parsed = safeParseJson(data);
      if (!parsed.success) throw new ProviderError("provider_response_invalid", `${label} sent a stream event that is not JSON (${parsed.error}): ${data.slice(0, 200)}`);
      for (const event of accumulator.apply(parsed.value)) {
        firstTokenAt ??= performance.now();
        yield event;
        // Events already buffered would otherwise keep coming after the caller aborted.
        if (input.signal?.aborted) throw abortError();
      }
      if (accumulator.isFinished) break;
    }
    if (input.signal?.aborted) throw abortError();
    if (!accumulator.isFinished) {
      if (events === 0) {
        const refused = notAnEventStream(label, watched.head());
        if (refused) throw refused;
      }
      throw new ProviderError("provider_connection_error", `The ${label} stream ended before response.completed, so the response is incomplete. Retry the call.`, { isRetryable: true });
    }
    yield { type: "done", response: accumulator.response(), usage: timed(accumulator.usage() ?? zeroUsage()) };
  } catch (error) {
    const aborted = input.signal?.aborted === true;
    const usage = accumulator.usage();
    yield {
      type: "error",
      error: aborted ? abortError() : toStreamError(error),
      partial: accumulator.response(aborted ? "aborted" : "error"),
      ...(usage === undefined ? {} : { usage: timed(usage) }),
    };
  }
}

async function* readEvents(body: AsyncIterable<Uint8Array>, maxEventCharacters: number | undefined): AsyncGenerator<string> {
  try {
    for await (const event of parseServerSentEvents(body, maxEventCharacters === undefined ? {} : { maxEventCharacters })) yield event.data;
  } catch (error) {
    if (error instanceof CtxkitError) throw error;
    throw new ProviderError("provider_connection_error", `The connection to ${label} broke mid-stream (${describe(error)}); the partial response is kept. Retry the call.`, {
      cause: error,
      isRetryable: true,
    });
  }
}

function toStreamError(error: unknown): CtxkitError {
  if (error instanceof CtxkitError) return error;
  return new ProviderError("provider_connection_error", `The connection to ${label} broke before the response was complete (${describe(error)}). Retry the request.`, {
    cause: error,
    isRetryable: true,
  });
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}

function zeroUsage(): Usage {
  return { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 };
}
