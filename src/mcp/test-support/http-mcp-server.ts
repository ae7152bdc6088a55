import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export interface HttpMcpTool {
  name: string;
  description: string;
  readOnly?: boolean;
}

/** A real streamable-HTTP MCP server on 127.0.0.1 (the SDK's own classes) that records what reaches it. */
export interface HttpMcpServer {
  url: string;
  /** The headers of every HTTP request, the handshake's included. */
  headers: IncomingHttpHeaders[];
  calls: Array<{ name: string; arguments: unknown }>;
  close(): Promise<void>;
}

/** Serves `tools` (each takes `q` and `text` strings and answers "<label> got it"); one MCP session per client. */
export async function startHttpMcpServer(tools: readonly HttpMcpTool[], label = "http-mcp"): Promise<HttpMcpServer> {
  const headers: IncomingHttpHeaders[] = [];
  const calls: HttpMcpServer["calls"] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((request, response) => {
    headers.push(request.headers);
    void (async () => {
      const sessionId = request.headers["mcp-session-id"];
      let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
      if (!transport) {
        const mcp = new Server({ name: label, version: "1.0.0" }, { capabilities: { tools: {} } });
        mcp.setRequestHandler(ListToolsRequestSchema, () => ({
          tools: tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            inputSchema: { type: "object", properties: { q: { type: "string" }, text: { type: "string" } } },
            ...(tool.readOnly ? { annotations: { readOnlyHint: true } } : {}),
          })),
        }));
        mcp.setRequestHandler(CallToolRequestSchema, (call) => {
          calls.push({ name: call.params.name, arguments: call.params.arguments });
          return { content: [{ type: "text", text: `${label} got it` }] };
        });
        const fresh: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void transports.set(id, fresh) });
        await mcp.connect(fresh);
        transport = fresh;
      }
      await transport.handleRequest(request, response);
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    headers,
    calls,
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
