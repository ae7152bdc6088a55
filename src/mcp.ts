// The `ctxkit/mcp` entry: MCP servers as ctxkit tools. `connectMcpServers` starts stdio servers or
// connects to streamable-HTTP ones and lists their tools; `createMcpPolicy` tells the model about
// tools that change mid-session without touching the frozen prefix. Needs the optional peer
// `@modelcontextprotocol/sdk`, loaded on the first connection.
export { connectMcpServers, type ConnectMcpServersOptions, type McpConnections, type McpDeferMode, type McpToolsChange } from "./mcp/connect-mcp-servers.js";
export { createMcpPolicy } from "./mcp/create-mcp-policy.js";
export { parseMcpServersConfig, type McpServersConfig, type McpServerConfig, type McpStdioServerConfig, type McpHttpServerConfig, type McpConfigOrigin } from "./mcp/mcp-config.js";
export type { McpConfirmation } from "./mcp/create-mcp-tool.js";
export type { McpWarning, McpWarningCode } from "./mcp/mcp-warning.js";
