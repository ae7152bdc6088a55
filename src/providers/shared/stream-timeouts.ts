import { ConfigError, ProviderError, type CtxkitError } from "../../types/index.js";

/**
 * How long a provider call may wait. Without them undici's defaults apply: a server that stalls
 * after the headers held a call 300 s (then `UND_ERR_BODY_TIMEOUT`), one that never answered held it
 * 907 s over three attempts.
 */
export interface StreamTimeouts {
  /** From sending the request to the response headers, per attempt (default 60 s; 0 turns it off). */
  firstByteMs?: number;
  /** Longest silence between two body chunks (default 60 s; 0 turns it off). Servers send keep-alive comments while thinking. */
  idleMs?: number;
}

export const defaultFirstByteTimeoutMs = 60_000;
export const defaultIdleTimeoutMs = 60_000;

/** Validates timeouts before any I/O (the settings' fail-fast rule). */
export function resolveStreamTimeouts(timeouts: unknown, label: string): Required<StreamTimeouts> {
  if (timeouts === undefined) return { firstByteMs: defaultFirstByteTimeoutMs, idleMs: defaultIdleTimeoutMs };
  if (timeouts === null || typeof timeouts !== "object") {
    throw new ConfigError("option_invalid", `${label}: \`timeouts\` must be an object like { firstByteMs: 60000, idleMs: 60000 }.`);
  }
  const { firstByteMs = defaultFirstByteTimeoutMs, idleMs = defaultIdleTimeoutMs } = timeouts as StreamTimeouts;
  for (const [name, value] of Object.entries({ firstByteMs, idleMs })) {
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new ConfigError("option_invalid", `${label}: timeouts.${name} must be a number of milliseconds ≥ 0 (0 turns it off).`);
    }
  }
  return { firstByteMs, idleMs };
}

export function firstByteTimeoutError(label: string, url: string, timeoutMs: number): CtxkitError {
  return new ProviderError(
    "provider_timeout",
    `${label} at ${url} sent no response within ${formatSeconds(timeoutMs)} (the first-byte timeout). Check that the ` +
      "server is up and not overloaded, or raise the limit (timeouts.firstByteMs; CLI --request-timeout).",
    { isRetryable: true },
  );
}

export function idleTimeoutError(label: string, timeoutMs: number): CtxkitError {
  return new ProviderError(
    "provider_timeout",
    `${label} sent nothing for ${formatSeconds(timeoutMs)} in the middle of its response (the idle-stream timeout). ` +
      "Retry the request, or raise the limit (timeouts.idleMs; CLI --idle-timeout).",
    { isRetryable: true },
  );
}

/**
 * The response with a body that fails with `idleTimeoutError` when no chunk arrives for `idleMs`;
 * `onIdle` then ends the underlying request. Reading code sees an ordinary stream error. `onEnd` is
 * told when the body was read to its end, failed or was cancelled: the caller's abort link must last
 * while the body streams, and not longer (a run's signal serves every call).
 */
export function withIdleTimeout(response: Response, idleMs: number, label: string, hooks: { onIdle: () => void; onEnd?: () => void }): Response {
  const onEnd = hooks.onEnd ?? (() => undefined);
  if (response.body === null) {
    onEnd();
    return response;
  }
  if (idleMs === 0 && hooks.onEnd === undefined) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: NodeJS.Timeout | undefined;
      const idle =
        idleMs === 0
          ? undefined
          : new Promise<"idle">((resolve) => {
              timer = setTimeout(() => resolve("idle"), idleMs);
            });
      try {
        const result = await (idle ? Promise.race([reader.read(), idle]) : reader.read());
        if (result === "idle") {
          onEnd();
          controller.error(idleTimeoutError(label, idleMs));
          hooks.onIdle();
          void reader.cancel().catch(() => undefined);
          return;
        }
        if (!result.done) return controller.enqueue(result.value);
        onEnd();
        controller.close();
      } catch (error) {
        onEnd();
        controller.error(error);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      onEnd();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function formatSeconds(milliseconds: number): string {
  return milliseconds % 1000 === 0 ? `${milliseconds / 1000} s` : `${milliseconds} ms`;
}
