import { describeAnswerTooLarge } from "./describe-answer-too-large.js";

/** The `fetch` an HTTP MCP transport is given: the SDK's own signature. */
export type McpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` for a streamable-HTTP MCP server whose answers to requests (POSTs) stop at `maxBytes`:
 * the SDK reads a JSON answer whole (`response.json()`), so a server sending 300 MB took 1.3 GB of
 * memory, and an endless one would take all of it. Past the cap the body fails with the reason (the
 * call gets it as its error) and the download is cancelled. The long-lived GET stream of server
 * notifications is left as it is.
 */
export function createCappedFetch(maxBytes: number, base: McpFetch = fetch): McpFetch {
  return async (url, init) => {
    const response = await base(url, init);
    if ((init?.method ?? "GET").toUpperCase() !== "POST" || response.body === null) return response;
    let seen = 0;
    const capped = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen <= maxBytes) controller.enqueue(chunk);
          else controller.error(new Error(describeAnswerTooLarge(maxBytes)));
        },
      }),
    );
    return new Response(capped, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
