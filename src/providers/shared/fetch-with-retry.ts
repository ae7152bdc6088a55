import { ContextOverflowError, CtxkitError, ProviderHttpError, ProviderError } from "../../types/index.js";
import { isContextOverflow } from "./context-overflow.js";
import { firstByteTimeoutError, withIdleTimeout, type StreamTimeouts } from "./stream-timeouts.js";
import { readBodyHead } from "./read-bounded-body.js";
import { htmlPageText } from "./html-page-text.js";

export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** First backoff in ms, doubled each retry (default 500). */
  initialDelayMs?: number;
  /** Upper bound for a server-requested `retry-after` (default 60 s). */
  maxDelayMs?: number;
}

export interface FetchWithRetryInput {
  fetch: typeof globalThis.fetch;
  url: string;
  init: RequestInit;
  retry: RetryOptions;
  signal?: AbortSignal;
  /** Used in error messages: "OpenAI-compatible (vllm)". */
  providerLabel: string;
  /** First-byte and idle limits, already resolved (0 = off). Default: none (the runtime's own). */
  timeouts?: Required<StreamTimeouts>;
}

const retryableStatuses = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);

/**
 * Sends a request, retrying 408/409/429/5xx/529 and connection failures with exponential backoff,
 * honouring `retry-after` / `retry-after-ms`. Resolves with an OK response or throws a typed error
 * (the caller turns it into a terminal stream event). Never retries once the body is being read:
 * a half-consumed stream cannot be replayed without duplicating output.
 */
export async function fetchWithRetry(input: FetchWithRetryInput): Promise<Response> {
  const maxRetries = input.retry.maxRetries ?? 2;
  const initialDelayMs = input.retry.initialDelayMs ?? 500;
  const maxDelayMs = input.retry.maxDelayMs ?? 60_000;
  let lastError: CtxkitError | undefined;

  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    if (attempt > 0) {
      const requested = lastError instanceof RetryAfter ? lastError.delayMs : undefined;
      const backoff = initialDelayMs * 2 ** (attempt - 1);
      await sleep(Math.min(requested ?? backoff, maxDelayMs), input.signal);
    }
    let response: Response;
    // Each attempt has its own controller, so a timeout ends this attempt and not the caller's signal.
    const attemptAbort = linkedController(input.signal);
    const firstByteMs = input.timeouts?.firstByteMs ?? 0;
    let timedOut = false;
    const firstByteTimer =
      firstByteMs > 0
        ? setTimeout(() => {
            timedOut = true;
            attemptAbort.controller.abort();
          }, firstByteMs)
        : undefined;
    try {
      response = await input.fetch(input.url, { ...input.init, signal: attemptAbort.controller.signal });
    } catch (error) {
      attemptAbort.release();
      if (input.signal?.aborted) throw abortError();
      if (timedOut) {
        lastError = firstByteTimeoutError(input.providerLabel, input.url, firstByteMs);
        continue;
      }
      lastError = new ProviderError(
        "provider_connection_error",
        `Could not reach ${input.providerLabel} at ${input.url}: ${describe(error)}. ` +
          "Check that the server is running and the base URL is right.",
        { cause: error, isRetryable: true },
      );
      continue;
    } finally {
      clearTimeout(firstByteTimer);
    }
    if (response.ok) {
      // A web page at the URL (a wrong base URL hitting a site or a proxy's login page) answers 200 too.
      const type = response.headers.get("content-type") ?? "";
      if (/text\/html/i.test(type)) {
        attemptAbort.release();
        await response.body?.cancel().catch(() => undefined);
        throw new ProviderError(
          "provider_response_invalid",
          `${input.providerLabel} at ${input.url} answered with a web page (${type.split(";")[0]}), not an event stream — check the base URL.`,
        );
      }
      const idleMs = input.timeouts?.idleMs ?? 0;
      return withIdleTimeout(response, idleMs, input.providerLabel, { onIdle: () => attemptAbort.controller.abort(), onEnd: attemptAbort.release });
    }
    const body = await readErrorBody(response, input, attemptAbort);
    if (input.signal?.aborted) throw abortError();
    if (isContextOverflow({ status: response.status, body })) throw new ContextOverflowError(extractMessage(body), body);
    const httpError = httpErrorFor(response.status, body, input.providerLabel);
    if (!httpError.isRetryable || attempt === maxRetries) throw httpError;
    const delayMs = retryAfterMs(response.headers);
    // A wait past the cap would be cut to the cap and the retry refused again (a 429 that asks for an
    // hour): the call fails now, saying how long the server asked for.
    if (delayMs !== undefined && delayMs > maxDelayMs) throw pastRetryCap(httpError, delayMs, maxDelayMs);
    lastError = delayMs === undefined ? httpError : new RetryAfter(httpError, delayMs);
  }
  throw unwrap(lastError) ?? new ProviderError("provider_connection_error", `${input.providerLabel}: request failed`);
}

/**
 * The head of an error response's body, or "" when it cannot be had. The status line is what
 * counts, so a body that stalls after the headers (a proxy's 502, a 429 whose body never comes)
 * is cut after the idle limit rather than holding the call until undici's 300 s body timeout; the
 * caller's abort stays linked while it is read (released too early, an abort could not end it).
 */
async function readErrorBody(
  response: Response,
  input: FetchWithRetryInput,
  attemptAbort: { controller: AbortController; release: () => void },
): Promise<string> {
  const limitMs = input.timeouts?.idleMs ?? 0;
  const timer = limitMs > 0 ? setTimeout(() => attemptAbort.controller.abort(), limitMs) : undefined;
  try {
    return await readBodyHead(response);
  } catch {
    return "";
  } finally {
    clearTimeout(timer);
    attemptAbort.release();
  }
}

/** An AbortController that also aborts when the caller's signal does; `release` unhooks it. */
function linkedController(signal: AbortSignal | undefined): { controller: AbortController; release: () => void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (signal?.aborted) controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  return { controller, release: () => signal?.removeEventListener("abort", onAbort) };
}

/** Carries a server-requested delay to the next attempt. */
class RetryAfter extends CtxkitError {
  constructor(readonly original: CtxkitError, readonly delayMs: number) {
    super(original.code, original.message, { isRetryable: true, cause: original });
  }
}

function unwrap(error: CtxkitError | undefined): CtxkitError | undefined {
  return error instanceof RetryAfter ? error.original : error;
}

function httpErrorFor(status: number, body: string, providerLabel: string): ProviderHttpError {
  // The vendor's sentence usually ends with its own period ("…/api-keys.") or another stop ("Try again?"); only a
  // detail without one gets ours.
  const detail = extractMessage(body) || `HTTP ${status}`;
  const stop = /[.!?]$/.test(detail) ? "" : ".";
  const hint =
    status === 401 || status === 403
      ? " Check the API key (the `apiKey` setting or the provider's environment variable)."
      : status === 404
        ? " Check the base URL (it usually ends in /v1) and the model name."
        : status === 429
          ? " You are rate limited; retry later or lower the request rate."
          : status >= 500
            ? " The server failed; retry later."
            : "";
  return new ProviderHttpError(status, body, `${providerLabel} answered ${status}: ${detail}${stop}${hint}`, retryableStatuses.has(status));
}

function pastRetryCap(error: ProviderHttpError, delayMs: number, maxDelayMs: number): ProviderHttpError {
  const seconds = (milliseconds: number) => `${Math.ceil(milliseconds / 1000).toLocaleString("en-US")} s`;
  return new ProviderHttpError(
    error.status,
    error.responseBody,
    `${error.message} The server asks to wait ${seconds(delayMs)} before retrying, longer than ctxkit waits between retries (${seconds(maxDelayMs)}, the provider's retry.maxDelayMs), so the call was not retried.`,
    error.isRetryable,
  );
}

/** Pulls the human message out of the common error shapes ({error:{message}}, {error:"…"}, {message}). */
export function extractMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string; detail?: string };
    if (typeof parsed.error === "string") return parsed.error;
    if (parsed.error?.message) return parsed.error.message;
    if (parsed.message) return parsed.message;
    if (parsed.detail) return parsed.detail;
  } catch {
    // not JSON: fall through to the raw text
  }
  // A proxy's error page (nginx, Cloudflare) is HTML: its text says what happened, its markup does not.
  const text = /^\s*</.test(body) ? htmlPageText(body) : body;
  return text.replace(/\s+/g, " ").trim().slice(0, 500);
}

function retryAfterMs(headers: Headers): number | undefined {
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null && Number.isFinite(Number(milliseconds))) return Number(milliseconds);
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function abortError(): CtxkitError {
  return new ProviderError("aborted", "The request was aborted by the caller.");
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
