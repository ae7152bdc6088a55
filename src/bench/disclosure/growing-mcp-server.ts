// A small MCP server over stdio for `ctxkit bench disclosure`, on the MCP SDK's Server: it starts
// with two tools, and its `open_refunds` tool adds `issue_refund` and sends
// notifications/tools/list_changed — a tool source that changes mid-session, as real servers do when
// a user signs in or a plugin loads. Run as `node growing-mcp-server.js`; it never reads the network.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";

const tools = new Map<string, Omit<Tool, "name">>([
  [
    "flight_status",
    {
      description: "Tells whether a flight (e.g. HAT170) is on time, delayed or cancelled.",
      inputSchema: { type: "object", properties: { flight: { type: "string" } }, required: ["flight"] },
      annotations: { readOnlyHint: true },
    },
  ],
  ["open_refunds", { description: "Opens the refund desk; its refund tool is added to this server's tools.", inputSchema: { type: "object", properties: {} } }],
]);

const refundTool: Omit<Tool, "name"> = {
  description: "Issues a refund of a cancelled reservation to its original payment method.",
  inputSchema: { type: "object", properties: { reservation_id: { type: "string" }, amount: { type: "number" } }, required: ["reservation_id", "amount"] },
};

const server = new Server({ name: "ctxkit-bench-growing", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools].map(([name, tool]) => ({ name, ...tool })) }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
  switch (request.params.name) {
    case "flight_status":
      return text(`${String(args.flight)} is on time.`);
    case "open_refunds":
      tools.set("issue_refund", refundTool);
      await server.sendToolListChanged();
      return text("The refund desk is open.");
    case "issue_refund":
      if (!tools.has("issue_refund")) break;
      return text(`Refunded ${String(args.amount)} for reservation ${String(args.reservation_id)}.`);
  }
  return { content: [{ type: "text" as const, text: `Unknown tool ${request.params.name}.` }], isError: true };
});

await server.connect(new StdioServerTransport());
