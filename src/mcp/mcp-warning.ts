/** Why a server or tool was left out, as data (the CLI prints it; the library never does). */
export type McpWarningCode =
  /** A workspace's config named a server that starts a program. */
  | "stdio_server_refused"
  /** A workspace's config named a server the person has not approved (or approved with another definition). */
  | "server_not_approved"
  /** The server did not start, did not answer the handshake in time, or closed. */
  | "server_failed"
  /** The server's tool list was malformed, too long, or could not be read. */
  | "tools_invalid"
  /** A tool was skipped (bad name or schema, or over the limits). */
  | "tool_skipped";

export interface McpWarning {
  code: McpWarningCode;
  server?: string;
  message: string;
}
