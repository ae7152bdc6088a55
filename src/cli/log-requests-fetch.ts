import { appendFileSync } from "node:fs";
import { PRIVATE_FILE_MODE } from "../types/private-file-modes.js";
import { CtxkitError } from "../types/index.js";
import { maskSecret } from "./resolve-config.js";
import { nodeErrorCode } from "../types/node-error-code.js";

const secretHeaders = new Set(["authorization", "x-api-key", "api-key"]);

/**
 * A fetch that appends every request it sends to `file` as one JSON line — time, URL, headers with
 * keys masked, and the body as sent — before passing it on. For debugging what a provider received.
 */
export function createRequestLoggingFetch(file: string, secrets: readonly string[], inner: typeof globalThis.fetch = globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = secretHeaders.has(name) ? maskSecret(value) : value;
    });
    const bodyText = typeof init?.body === "string" ? maskAll(init.body, secrets) : undefined;
    let body: unknown = bodyText;
    try {
      if (bodyText !== undefined) body = JSON.parse(bodyText);
    } catch {
      // Not JSON: logged as the text it is.
    }
    appendFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), method: init?.method ?? "GET", url, headers, body })}\n`, { mode: PRIVATE_FILE_MODE });
    return inner(input, init);
  };
}

/**
 * Opens the request log for appending once, before the run: a log under a file or in a folder that
 * does not exist would otherwise fail inside the provider's fetch, where it reads as "Could not reach
 * the server" and sends the person to check the base URL.
 */
export function requireWritableRequestLog(file: string): void {
  try {
    appendFileSync(file, "", { mode: PRIVATE_FILE_MODE });
  } catch (error) {
    const reason = nodeErrorCode(error) ?? (error instanceof Error ? error.message : String(error));
    throw new CtxkitError("option_invalid", `--log-requests ${file}: cannot write the request log there (${reason}). Give a file in a folder that exists and that you may write (--log-requests <file>, or "logRequests" in ctxkit.config.json).`, { cause: error });
  }
}

function maskAll(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) if (secret.length >= 4) masked = masked.split(secret).join(maskSecret(secret));
  return masked;
}
