import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the loopback server received, with its body as the exact bytes sent (UTF-8). */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A scripted HTTP response. `chunks` are written one by one (with `delayMs` between them) so tests
 * exercise real streaming; `destroyAfterChunks` cuts the connection mid-stream. A chunk given as
 * bytes goes out as it is (a cut inside a UTF-8 character, say).
 */
export interface ScriptedHttpResponse {
  status?: number;
  headers?: Record<string, string>;
  chunks?: Array<string | Uint8Array>;
  body?: string;
  delayMs?: number;
  destroyAfterChunks?: boolean;
}

export type ResponseHandler = (request: RecordedRequest) => ScriptedHttpResponse | Promise<ScriptedHttpResponse>;

export interface LoopbackServer {
  /** e.g. "http://127.0.0.1:41234" */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on 127.0.0.1 with a free port. Responses come from a queue (one per request,
 * in order; the last one repeats) or from a handler function. Used to test providers against real
 * wire formats without mocking `fetch`.
 */
export async function startLoopbackServer(responses: ScriptedHttpResponse[] | ResponseHandler): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  let served = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const parts: Buffer[] = [];
    incoming.on("data", (part: Buffer) => parts.push(part));
    incoming.on("end", async () => {
      const recorded: RecordedRequest = {
        method: incoming.method ?? "GET",
        path: incoming.url ?? "/",
        headers: incoming.headers,
        body: Buffer.concat(parts).toString("utf8"),
      };
      requests.push(recorded);
      const scripted =
        typeof responses === "function"
          ? await responses(recorded)
          : (responses[Math.min(served, responses.length - 1)] ?? { status: 500, body: "no scripted response" });
      served++;
      outgoing.writeHead(scripted.status ?? 200, scripted.headers ?? {});
      if (scripted.chunks) {
        for (const chunk of scripted.chunks) {
          outgoing.write(chunk);
          if (scripted.delayMs) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
        }
        if (scripted.destroyAfterChunks) {
          outgoing.destroy();
          return;
        }
      }
      outgoing.end(scripted.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Formats SSE `data:` events (and optional `event:` names) the way vendors stream them. */
export function sseChunks(events: Array<unknown | { event: string; data: unknown }>, options: { done?: boolean } = {}): string[] {
  const chunks = events.map((entry) => {
    if (entry !== null && typeof entry === "object" && "event" in entry && "data" in entry) {
      const named = entry as { event: string; data: unknown };
      return `event: ${named.event}\ndata: ${JSON.stringify(named.data)}\n\n`;
    }
    return `data: ${JSON.stringify(entry)}\n\n`;
  });
  if (options.done) chunks.push("data: [DONE]\n\n");
  return chunks;
}
