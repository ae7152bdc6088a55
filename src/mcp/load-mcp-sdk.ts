import { ConfigError } from "../types/errors.js";

/** The parts of the MCP SDK a client connection needs. */
export interface McpSdk {
  Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  StdioClientTransport: typeof import("@modelcontextprotocol/sdk/client/stdio.js").StdioClientTransport;
  getDefaultEnvironment: typeof import("@modelcontextprotocol/sdk/client/stdio.js").getDefaultEnvironment;
  deserializeMessage: typeof import("@modelcontextprotocol/sdk/shared/stdio.js").deserializeMessage;
  StreamableHTTPClientTransport: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport;
  ToolListChangedNotificationSchema: typeof import("@modelcontextprotocol/sdk/types.js").ToolListChangedNotificationSchema;
}

export const mcpSdkInstallCommand = "npm install @modelcontextprotocol/sdk@^1.32.2";

let loaded: Promise<McpSdk> | undefined;

/**
 * Imports the MCP SDK on the first connection. It is an optional peer dependency (it brings a web
 * server stack of ~30 MB that a client never runs), so an agent without MCP servers never pays for it.
 */
export function loadMcpSdk(): Promise<McpSdk> {
  loaded ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/shared/stdio.js"),
  ]).then(
    ([client, stdio, http, types, stdioShared]) => ({
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      getDefaultEnvironment: stdio.getDefaultEnvironment,
      deserializeMessage: stdioShared.deserializeMessage,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    }),
    (error: unknown) => {
      loaded = undefined;
      throw new ConfigError("dependency_missing", `MCP servers need the optional package @modelcontextprotocol/sdk, which could not be loaded (${error instanceof Error ? error.message : String(error)}). Install it next to ctxkit with: ${mcpSdkInstallCommand}`, { cause: error });
    },
  );
  return loaded;
}
