import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolOutput } from "../types/index.js";
import { connectMcpServers } from "./connect-mcp-servers.js";

// A real streamable-HTTP MCP server on 127.0.0.1, built from the SDK's server classes.
describe("connectMcpServers over streamable HTTP", () => {
  const headers: IncomingHttpHeaders[] = [];
  let url = "";
  let close: () => Promise<void>;

  beforeAll(async () => {
    const mcp = new Server({ name: "http-test", version: "1.0.0" }, { capabilities: { tools: {} } });
    mcp.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: "weather.today", description: "Today's weather in a city.", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
    }));
    mcp.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: "text", text: `sunny in ${String(request.params.arguments?.city)}` }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await mcp.connect(transport);
    const http = createServer((request, response) => {
      headers.push(request.headers);
      void transport.handleRequest(request, response);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    close = async () => {
      await mcp.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    };
  });
  afterAll(() => close());

  it("lists and calls tools, sending the configured headers", async () => {
    const connections = await connectMcpServers({ remote: { url, headers: { Authorization: "Bearer test-token" } } });
    try {
      expect(connections.warnings).toEqual([]);
      // '.' is not allowed in provider tool names: it becomes '_'.
      expect(connections.tools.map((tool) => tool.name)).toEqual(["mcp__remote__weather_today"]);
      const output = (await connections.tools[0]!.execute({ city: "Oslo" }, { signal: new AbortController().signal, toolCallId: "c1" })) as ToolOutput;
      expect(output).toEqual({ content: "sunny in Oslo" });
      expect(headers.length).toBeGreaterThan(1);
      expect(headers.every((entry) => entry.authorization === "Bearer test-token")).toBe(true);
    } finally {
      await connections.close();
    }
  }, 60_000);

  it("warns when nothing answers at the URL", async () => {
    const connections = await connectMcpServers({ gone: { url: "http://127.0.0.1:9/mcp", headers: {} } }, { startTimeoutMs: 5_000 });
    expect(connections.tools).toEqual([]);
    expect(connections.warnings.map((warning) => warning.code)).toEqual(["server_failed"]);
    await connections.close();
  }, 60_000);
});
