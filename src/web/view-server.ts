import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CtxkitError } from "../types/index.js";
import { createCallDetailBuilder } from "./call-detail.js";
import { DEFAULT_ASSETS_DIRECTORY, readPageAsset } from "./serve-page-asset.js";
import { withApiPreloads } from "./page-preloads.js";
import { linkTraceToRuns, type TraceFileView } from "./otlp-trace-file.js";
import { handleApiRequest } from "./view-api.js";
import { createViewToken, isTokenValid, presentedToken, tokenCookieName } from "./view-auth.js";
import type { ViewSource } from "./view-source.js";

export interface ViewServerOptions {
  source: ViewSource;
  /** Only 127.0.0.1: the page shows whole prompts, which must not reach the network. */
  host?: string;
  /** 0 (default): a free port chosen by the system. */
  port?: number;
  /** Require the URL's token on every request (default true). */
  auth?: boolean;
  /** A fixed token (tests); default a random one. */
  token?: string;
  /** The built page (default: dist/web/page of this package). */
  assetsDirectory?: string;
  /** How often the files are checked for growth (default 500 ms). */
  pollMilliseconds?: number;
  /** OTLP JSON trace files to show beside the runs (`/api/traces`); their chat spans link to the runs' calls. */
  traces?: readonly TraceFileView[];
}

export interface ViewServer {
  /** The page's full URL, with the token when auth is on. */
  url: string;
  port: number;
  token?: string;
  close(): Promise<void>;
}

const ALLOWED_HOST = "127.0.0.1";

/**
 * Serves the viewer page, its JSON API and a server-sent event stream (`/api/events`, an `update`
 * event whenever the files grew) on 127.0.0.1. Every request needs the token (query, cookie or
 * bearer header) and a Host header naming this server, so neither another site's page nor DNS
 * rebinding can read the prompts.
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const host = options.host ?? ALLOWED_HOST;
  if (host !== ALLOWED_HOST) {
    throw new CtxkitError("view_address_refused", `The viewer only listens on ${ALLOWED_HOST} (it shows whole prompts); got ${host}. Reach it from elsewhere through an SSH tunnel.`);
  }
  const { source } = options;
  const auth = options.auth ?? true;
  const token = options.token ?? createViewToken();
  const assets = options.assetsDirectory ?? DEFAULT_ASSETS_DIRECTORY;
  const details = createCallDetailBuilder(source);
  const listeners = new Set<ServerResponse>();
  let port = 0;

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, "application/json", JSON.stringify({ error: (error as Error).message }));
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", `http://${ALLOWED_HOST}:${port}`);
    if (request.headers.host !== `${ALLOWED_HOST}:${port}` && request.headers.host !== `localhost:${port}`) {
      send(response, 403, "text/plain; charset=utf-8", "ctxkit view: unexpected Host header.\n");
      return;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      send(response, 405, "text/plain; charset=utf-8", "ctxkit view: read-only; use GET.\n");
      return;
    }
    if (auth && !isTokenValid(presentedToken(request, url, port), token)) {
      send(response, 401, "text/plain; charset=utf-8", "ctxkit view: this page needs the token: open the full URL ctxkit view printed.\n");
      return;
    }
    if (auth && url.searchParams.has("token")) {
      response.setHeader("Set-Cookie", `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`);
    }
    if (url.pathname === "/favicon.ico") {
      send(response, 204, "image/x-icon", "");
      return;
    }
    if (url.pathname === "/api/events") return openEventStream(response);
    if (url.pathname === "/api/traces") {
      const runs = source.runs().map((run) => ({ id: run.analyzed.id, calls: run.imported.calls.length }));
      send(response, 200, "application/json", JSON.stringify({ traces: linkTraceToRuns(options.traces ?? [], runs) }));
      return;
    }
    if (url.pathname.startsWith("/api/")) {
      const result = await handleApiRequest(source, details, url.pathname.slice("/api/".length), url.searchParams);
      if (result.status === 200) response.once("finish", () => startCountingAfter(url.pathname));
      send(response, result.status, "application/json", JSON.stringify(result.body));
      return;
    }
    const asset = await readPageAsset(assets, url.pathname === "/" ? "index.html" : url.pathname);
    if (asset === undefined) {
      const missing = url.pathname === "/";
      send(response, 404, "text/plain; charset=utf-8", missing ? `ctxkit view: the page is not built (no ${assets}index.html); run 'npm run build'.\n` : "Not found.\n");
      return;
    }
    const page = url.pathname === "/" || url.pathname === "/index.html";
    send(response, 200, asset.contentType, page ? withApiPreloads(asset.body.toString("utf8"), auth ? token : undefined, (source.runs()[0]?.imported.calls.length ?? 0) - 1) : asset.body);
  }

  /**
   * The exact-count thread starts once the page has drawn, so it slows neither the start nor the
   * first drawing: a second after the first timeline or call prompt went out (the page preloads
   * both with its HTML; a script reading the API asks for them too).
   */
  function startCountingAfter(path: string): void {
    if (source.startExactCounts === undefined) return;
    if (/^\/api\/runs\/\d+\/(calls\/\d+|timeline)$/.test(path)) setTimeout(() => source.startExactCounts?.(), 1000).unref();
  }

  function openEventStream(response: ServerResponse): void {
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store", Connection: "keep-alive" });
    response.write(`event: update\ndata: ${JSON.stringify({ version: source.version() })}\n\n`);
    listeners.add(response);
    response.on("close", () => listeners.delete(response));
  }

  let refreshing = false;
  // The version also moves without the files changing (exact counts computed in the background).
  let announced = source.version();
  const poll = setInterval(() => {
    if (refreshing) return;
    refreshing = true;
    source
      .refresh()
      .then(() => {
        if (source.version() === announced) return;
        announced = source.version();
        for (const listener of listeners) listener.write(`event: update\ndata: ${JSON.stringify({ version: announced })}\n\n`);
      })
      .catch(() => undefined)
      .finally(() => (refreshing = false));
  }, options.pollMilliseconds ?? 500);
  poll.unref();

  await new Promise<void>((resolvePromise, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      clearInterval(poll);
      // Node's own text ("listen EADDRINUSE: address already in use 127.0.0.1:8080") names no way out.
      reject(
        error.code === "EADDRINUSE"
          ? new CtxkitError("port_in_use", `Port ${options.port} on ${ALLOWED_HOST} is in use; choose another port, or 0 for a free one.`, { cause: error })
          : error.code === "EACCES"
            ? new CtxkitError("port_not_permitted", `Port ${options.port} on ${ALLOWED_HOST} may not be used by this user; choose another port, or 0 for a free one.`, { cause: error })
            : error,
      );
    });
    server.listen(options.port ?? 0, ALLOWED_HOST, () => resolvePromise());
  });
  port = (server.address() as AddressInfo).port;
  const result: ViewServer = {
    url: `http://${ALLOWED_HOST}:${port}/${auth ? `?token=${token}` : ""}`,
    port,
    close: () =>
      new Promise<void>((resolvePromise) => {
        clearInterval(poll);
        for (const listener of listeners) listener.end();
        server.closeAllConnections();
        server.close(() => resolvePromise());
      }),
  };
  if (auth) result.token = token;
  return result;
}

function send(response: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  response.writeHead(status, {
    "Content-Type": contentType,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    // The URL carries the token: never send it on as a referrer.
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
  });
  response.end(body);
}
