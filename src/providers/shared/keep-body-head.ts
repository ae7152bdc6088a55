import { ProviderError } from "../../types/index.js";
import { extractMessage } from "./fetch-with-retry.js";

/**
 * The body as it streams past, with its first `maximumBytes` kept. A stream that ends without one
 * event was something else: a JSON answer from a server or proxy that does not stream, or an error
 * object sent with status 200. Its head is then the message worth showing, where "the stream ended
 * early, retry" would send the caller retrying a call that cannot succeed.
 */
export function keepBodyHead(body: AsyncIterable<Uint8Array>, maximumBytes = 4096): { body: AsyncIterable<Uint8Array>; head: () => string } {
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  return {
    body: {
      async *[Symbol.asyncIterator]() {
        for await (const chunk of body) {
          if (keptBytes < maximumBytes) {
            const part = chunk.subarray(0, maximumBytes - keptBytes);
            // A copy: the chunk's buffer may be reused once it has been handed on.
            kept.push(Uint8Array.from(part));
            keptBytes += part.length;
          }
          yield chunk;
        }
      },
    },
    head: () => Buffer.concat(kept).toString("utf8"),
  };
}

/**
 * The error for a 200 answer to a streaming request that held no server-sent event, or undefined
 * when it held nothing at all (a connection cut before the first byte: worth a retry).
 */
export function notAnEventStream(providerLabel: string, head: string): ProviderError | undefined {
  if (head.trim() === "") return undefined;
  return new ProviderError(
    "provider_response_invalid",
    `${providerLabel} answered the streaming request without a single server-sent event; it sent: ${extractMessage(head).slice(0, 300)}. ` +
      "Check that the base URL points at a server that streams (the request asks for stream: true), not at a proxy or server that answers in one piece.",
  );
}
