/**
 * Whether a content block type is one the API ran on its side and must get back unchanged: a server
 * tool's call (`server_tool_use`, `mcp_tool_use` of the MCP connector) or any of their results
 * (`tool_search_tool_result`, `web_search_tool_result`, `mcp_tool_result`…). `tool_result` is ours.
 * A call and its result are kept by the same rule, so a request never carries one without the other.
 * `compaction` is the server's own summary (compact_20260112): "pass the compaction block back to the
 * API in the next request", and the API drops what came before it.
 */
export function isServerBlockType(type: unknown): boolean {
  return (
    typeof type === "string" &&
    (type === "server_tool_use" || type === "mcp_tool_use" || type === "compaction" || (type !== "tool_result" && type.endsWith("_tool_result")))
  );
}
