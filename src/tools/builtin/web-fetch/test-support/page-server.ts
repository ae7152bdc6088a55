import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";

export interface PageServer {
  /** e.g. "http://127.0.0.1:41234" */
  url: string;
  port: number;
  /** Every request's path and Host header, in order. */
  requests: Array<{ path: string; host: string }>;
  /** Sockets the server saw closed by the client (a capped or timed-out fetch hangs up). */
  closedSockets(): number;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 whose handler may stream, stall or redirect as a test needs. */
export async function startPageServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<PageServer> {
  const requests: PageServer["requests"] = [];
  const sockets = new Set<Socket>();
  let closed = 0;
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? "/", host: request.headers.host ?? "" });
    handler(request, response);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      closed += 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    closedSockets: () => closed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes `chunk` every `intervalMs` until the client hangs up: a body that never ends. */
export function streamForever(response: ServerResponse, chunk: string, intervalMs = 1): void {
  const timer = setInterval(() => {
    if (response.destroyed || response.writableEnded) clearInterval(timer);
    else response.write(chunk);
  }, intervalMs);
  response.on("close", () => clearInterval(timer));
}
