import { describe, expect, it } from "vitest";
import type { McpServersConfig } from "./mcp-config.js";
import { connectMcpServers } from "./connect-mcp-servers.js";

// Servers given in code skip parseMcpServersConfig: a server with neither key was reported as "Invalid URL".
describe("connectMcpServers with a server's settings given in code", () => {
  it("names command and url when a server has neither, and a url that is not one", async () => {
    const mcp = await connectMcpServers({ neither: { nonsense: true }, bad: { url: "not a url" } } as unknown as McpServersConfig);
    await mcp.close();
    expect(mcp.tools).toEqual([]);
    expect(mcp.warnings).toEqual([
      { code: "server_failed", server: "bad", message: 'MCP server \'bad\' did not start: its `url` "not a url" is not a URL (e.g. http://127.0.0.1:3000/mcp)' },
      { code: "server_failed", server: "neither", message: "MCP server 'neither' did not start: its settings name neither `command` (a program to start, stdio) nor `url` (streamable HTTP)" },
    ]);
  });
});
