import { appendFileSync } from "node:fs";
import { PRIVATE_FILE_MODE } from "../session/private-storage.js";
import { maskSecret } from "./resolve-config.js";

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

function maskAll(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) if (secret.length >= 4) masked = masked.split(secret).join(maskSecret(secret));
  return masked;
}
