import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createBoundedReadBuffer, type StdioReadBuffer } from "./bounded-read-buffer.js";
import { createCappedFetch } from "./capped-fetch.js";
import { loadMcpSdk } from "./load-mcp-sdk.js";
import { maximumJsonNesting } from "../providers/shared/parse-untrusted-json.js";
import { isStdioServer, type McpServerConfig } from "./mcp-config.js";

/** A tool as a server listed it, before ctxkit checks it (every field is the server's word). */
export interface McpListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** The server's `readOnlyHint` annotation (a hint, not a guarantee). */
  readOnly?: boolean;
  /** The server's `idempotentHint` annotation: calling twice does what calling once does (a hint too). */
  idempotent?: boolean;
}

/** One live connection to one MCP server. */
export interface McpServerConnection {
  readonly name: string;
  /** The server's tools/list, every page, up to `maxTools` (a malformed answer throws). */
  listTools(): Promise<McpListedTool[]>;
  /** tools/call; throws when the server fails, closes, times out or the signal aborts. */
  callTool(tool: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeoutMs: number }): Promise<unknown>;
  /** Told when the server sends notifications/tools/list_changed. */
  onToolListChanged(listener: () => void): void;
  /** Set once the connection closed (the process died, the HTTP session ended, or close()). */
  readonly closedReason: string | undefined;
  /** The child's process id (stdio servers), so a last-resort exit hook can end it. */
  readonly pid: number | undefined;
  close(): Promise<void>;
}

export interface ConnectMcpServerOptions {
  /** The handshake must finish within this many milliseconds. */
  startTimeoutMs: number;
  /** Where stdio servers start (their `cwd` is relative to it). */
  cwd?: string;
  /** More tools than this from one server is treated as hostile and cut. */
  maxTools: number;
  clientVersion: string;
}

/** Pages a tools/list may take before ctxkit stops asking (a server could page forever). */
const maxPages = 20;
/** Bytes of one message a server may send (a tool's answer is cut to 50,000 characters anyway). */
const maxMessageBytes = 32 * 1024 * 1024;
/** Levels one message may nest: the JSON-RPC envelope and a result's few levels around the limit ctxkit keeps for all JSON from outside. */
const maxMessageNesting = maximumJsonNesting + 16;
/** The end of a stdio server's stderr kept to explain a failure. */
const stderrTail = 2_000;

/** Starts (stdio) or reaches (HTTP) one server and runs the MCP handshake; throws with the reason when it cannot. */
export async function connectMcpServer(name: string, config: McpServerConfig, options: ConnectMcpServerOptions): Promise<McpServerConnection> {
  const { Client, StdioClientTransport, StreamableHTTPClientTransport, ToolListChangedNotificationSchema, getDefaultEnvironment, deserializeMessage } = await loadMcpSdk();
  let stderr = "";
  let transport: Transport;
  if (isStdioServer(config)) {
    const stdio = new StdioClientTransport({
      command: config.command,
      args: config.args,
      // The SDK's short list (PATH, HOME, …) plus the config's: a server never sees our API keys unasked.
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd || options.cwd ? { cwd: config.cwd ?? options.cwd } : {}),
      stderr: "pipe",
    });
    // The SDK's own read buffer is quadratic in a line's length and ends the server at a 10 MB answer
    // (see createBoundedReadBuffer); it is replaced while the SDK keeps it in this field.
    const internals = stdio as unknown as { _readBuffer?: StdioReadBuffer };
    if (internals._readBuffer !== undefined) internals._readBuffer = createBoundedReadBuffer({ maxMessageBytes: maxMessageBytes, maxNesting: maxMessageNesting, parse: deserializeMessage });
    // Read stderr always (a full pipe would block the child) and keep its end for error messages.
    stdio.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-stderrTail);
    });
    transport = stdio;
  } else {
    transport = new StreamableHTTPClientTransport(serverURL(config.url), { requestInit: { headers: config.headers }, fetch: createCappedFetch(maxMessageBytes) });
  }
  const client = new Client({ name: "ctxkit", version: options.clientVersion }, { capabilities: {} });
  let closedReason: string | undefined;
  const listeners: Array<() => void> = [];
  client.onclose = () => {
    closedReason ??= `the server closed the connection${stderr.trim() ? ` (its last output: ${stderr.trim().slice(-300)})` : ""}`;
  };
  // Garbage on stdout or a broken HTTP stream: the SDK reports it here; a pending call then fails or times out.
  client.onerror = () => {};
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    for (const listener of listeners) listener();
  });
  try {
    await client.connect(transport, { timeout: options.startTimeoutMs });
  } catch (error) {
    await client.close().catch(() => {});
    const detail = stderr.trim() ? ` Its output: ${stderr.trim().slice(-500)}` : "";
    throw new Error(`${describeError(error)}.${detail}`, { cause: error });
  }
  return {
    name,
    get closedReason() {
      return closedReason;
    },
    get pid() {
      return transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
    },
    async listTools() {
      const tools: McpListedTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < maxPages; page += 1) {
        const result = await client.listTools(cursor ? { cursor } : {}, { timeout: options.startTimeoutMs });
        for (const tool of result.tools) {
          if (tools.length >= options.maxTools) return tools;
          tools.push({ name: tool.name, ...(tool.description ? { description: tool.description } : {}), inputSchema: tool.inputSchema as Record<string, unknown>, ...(tool.annotations?.readOnlyHint === true ? { readOnly: true } : {}), ...(tool.annotations?.idempotentHint === true ? { idempotent: true } : {}) });
        }
        cursor = result.nextCursor;
        if (!cursor) break;
      }
      return tools;
    },
    callTool(tool, args, callOptions) {
      if (closedReason) return Promise.reject(new Error(closedReason));
      return client.callTool({ name: tool, arguments: args }, undefined, { signal: callOptions.signal, timeout: callOptions.timeoutMs, maxTotalTimeout: callOptions.timeoutMs });
    },
    onToolListChanged(listener) {
      listeners.push(listener);
    },
    async close() {
      closedReason ??= "the connection was closed";
      await client.close().catch(() => {});
    },
  };
}

export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+$/, "").replace(/\.$/, "").slice(0, 500);
}

/** A server given in code (not through parseMcpServersConfig) may lack both keys: said in its terms, not as "Invalid URL". */
function serverURL(url: unknown): URL {
  if (typeof url !== "string") throw new Error("its settings name neither `command` (a program to start, stdio) nor `url` (streamable HTTP)");
  try {
    return new URL(url);
  } catch {
    throw new Error(`its \`url\` ${JSON.stringify(url)} is not a URL (e.g. http://127.0.0.1:3000/mcp)`);
  }
}
