import { performance } from "node:perf_hooks";
import { CtxkitError, type Usage, ProviderError } from "../../types/index.js";
import { safeParseJson } from "../shared/canonical-json.js";
import { keepBodyHead, notAnEventStream } from "../shared/keep-body-head.js";
import { abortError, fetchWithRetry, type RetryOptions } from "../shared/fetch-with-retry.js";
import type { StreamTimeouts } from "../shared/stream-timeouts.js";
import { parseServerSentEvents } from "../shared/server-sent-events.js";
import type { ProviderEvent } from "../provider.js";
import { AnthropicStreamAccumulator } from "./anthropic-stream-accumulator.js";

export interface StreamAnthropicInput {
  fetch: typeof globalThis.fetch;
  url: string;
  headers: Record<string, string>;
  body: string;
  retry: RetryOptions;
  timeouts?: Required<StreamTimeouts>;
  /** The most characters one event may hold (default 64 Mi). */
  maxEventCharacters?: number;
  signal?: AbortSignal;
}

/**
 * One streamed Messages API call. Never throws: HTTP failures (after fetchWithRetry's retries, which
 * cover 529 overloaded_error before the stream starts), a broken connection, malformed events and
 * aborts all end the stream with one `error` event carrying the partial response.
 */
export async function* streamAnthropic(input: StreamAnthropicInput): AsyncGenerator<ProviderEvent> {
  const startedAt = performance.now();
  let firstTokenAt: number | undefined;
  const accumulator = new AnthropicStreamAccumulator();
  const timed = (usage: Usage): Usage => ({
    ...usage,
    ...(firstTokenAt === undefined ? {} : { timeToFirstTokenMs: Math.round(firstTokenAt - startedAt) }),
    latencyMs: Math.round(performance.now() - startedAt),
  });

  try {
    const response = await fetchWithRetry({
      fetch: input.fetch,
      url: input.url,
      init: { method: "POST", headers: input.headers, body: input.body },
      retry: input.retry,
      ...(input.timeouts === undefined ? {} : { timeouts: input.timeouts }),
      signal: input.signal,
      providerLabel: "Anthropic",
    });
    yield { type: "start" };
    if (response.body === null) throw new ProviderError("provider_response_invalid", "Anthropic answered 200 without a body; expected an SSE stream.");
    const watched = keepBodyHead(response.body as unknown as AsyncIterable<Uint8Array>);
    let events = 0;
    for await (const event of readEvents(watched.body, input.maxEventCharacters)) {
      events += 1;
      const parsed = safeParseJson(event);
      if (!parsed.success) {
        throw new ProviderError(
          "provider_response_invalid",
          `Anthropic sent a stream event that is not JSON (${parsed.error}): ${event.slice(0, 200)}`,
        );
      }
      for (const providerEvent of accumulator.apply(parsed.value)) {
        firstTokenAt ??= performance.now();
        yield providerEvent;
        // Events already buffered would otherwise keep coming after the caller aborted.
        if (input.signal?.aborted) throw abortError();
      }
      if (accumulator.isFinished) break;
    }
    if (!accumulator.isFinished) {
      if (events === 0) {
        const refused = notAnEventStream("Anthropic", watched.head());
        if (refused) throw refused;
      }
      throw new ProviderError("provider_connection_error", "The Anthropic stream ended before message_stop, so the response is incomplete. Retry the call.", {
        isRetryable: true,
      });
    }
    yield { type: "done", response: accumulator.response(), usage: timed(accumulator.usage() ?? emptyAnthropicUsage()) };
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
    throw new ProviderError(
      "provider_connection_error",
      `The connection to Anthropic broke mid-stream (${describe(error)}); the partial response is kept. Retry the call.`,
      { cause: error, isRetryable: true },
    );
  }
}

function toStreamError(error: unknown): CtxkitError {
  if (error instanceof CtxkitError) return error;
  return new ProviderError("provider_response_invalid", `Anthropic stream handling failed: ${describe(error)}`, { cause: error });
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}

function emptyAnthropicUsage(): Usage {
  return { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 };
}
