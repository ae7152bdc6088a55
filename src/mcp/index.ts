export { connectMcpServers, type ConnectMcpServersOptions, type McpConnections, type McpDeferMode, type McpToolsChange } from "./connect-mcp-servers.js";
export { createMcpPolicy, createToolsChangedMessage, mcpPolicyName, type McpPolicyOptions } from "./create-mcp-policy.js";
export { parseMcpServersConfig, isStdioServer, type McpServersConfig, type McpServerConfig, type McpStdioServerConfig, type McpHttpServerConfig, type McpConfigOrigin } from "./mcp-config.js";
export { convertMcpResult, defaultMaxResultCharacters } from "./convert-mcp-result.js";
export { mcpToolName } from "./mcp-tool-name.js";
export type { McpConfirmation } from "./create-mcp-tool.js";
export type { McpWarning, McpWarningCode } from "./mcp-warning.js";
