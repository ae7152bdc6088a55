/* global process, setTimeout, setInterval */
// A tiny MCP server over stdio for the tests, built on the SDK's low-level Server so it can misbehave
// on purpose: `node script-server.mjs <mode>`. Modes: well (normal), exit-at-start (dies before the
// handshake), garbage (writes non-JSON lines to stdout). Tools: echo, die (exits mid-call), hang (never
// answers), malformed (a result that is not a CallToolResult), huge (a 2 MB text), huger (12 MB), add_tool / remove_tool
// (change the tool list and send notifications/tools/list_changed), pid (its process id), flood (2,000 list_changed notifications), lists (how many tools/list it answered), put (a change that
// declares itself idempotent).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const mode = process.argv[2] ?? "well";
if (mode === "exit-at-start") {
  process.stderr.write("script-server: refusing to start\n");
  process.exit(3);
}

const object = (properties = {}, required = []) => ({ type: "object", properties, required });
const tools = new Map([
  ["echo", { description: "Echoes the message back.", inputSchema: object({ message: { type: "string" } }, ["message"]), annotations: { readOnlyHint: true } }],
  ["die", { description: "Exits the server in the middle of the call.", inputSchema: object() }],
  ["hang", { description: "Never answers.", inputSchema: object() }],
  ["malformed", { description: "Answers with a result that is not a CallToolResult.", inputSchema: object() }],
  ["huge", { description: "Answers with 2 MB of text.", inputSchema: object() }],
  ["huger", { description: "Answers with 12 MB of text (over the MCP SDK's own 10 MB limit of a stdio message).", inputSchema: object() }],
  ["add_tool", { description: "Adds the tool 'late' and announces the change.", inputSchema: object() }],
  ["remove_tool", { description: "Removes the tool 'echo' and announces the change.", inputSchema: object() }],
  ["pid", { description: "Tells the server's process id.", inputSchema: object() }],
  ["flood", { description: "Sends notifications/tools/list_changed 2,000 times.", inputSchema: object() }],
  ["lists", { description: "Tells how many tools/list requests the server has answered.", inputSchema: object() }],
  ["put", { description: "Sets the value (a change, but setting it twice is setting it once).", inputSchema: object({ value: { type: "string" } }, ["value"]), annotations: { readOnlyHint: false, idempotentHint: true } }],
]);

const server = new Server({ name: "script-server", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
let lists = 0;
server.setRequestHandler(ListToolsRequestSchema, () => {
  lists += 1;
  return { tools: [...tools].map(([name, tool]) => ({ name, ...tool })) };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const name = request.params.name;
  const text = (value) => ({ content: [{ type: "text", text: value }] });
  switch (name) {
    case "echo":
      return text(`echo: ${request.params.arguments?.message}`);
    case "die":
      setTimeout(() => process.exit(1), 10);
      return new Promise(() => {});
    case "hang":
      return new Promise(() => {});
    case "malformed":
      return { content: "this should be a list" };
    case "huge":
      return text("x".repeat(2_000_000));
    case "huger":
      return text("x".repeat(12_000_000));
    case "add_tool":
      tools.set("late", { description: "A tool that appeared after the start.", inputSchema: object({ n: { type: "number" } }) });
      await server.sendToolListChanged();
      return text("added");
    case "remove_tool":
      tools.delete("echo");
      await server.sendToolListChanged();
      return text("removed");
    case "pid":
      return text(String(process.pid));
    case "flood":
      for (let index = 0; index < 2000; index += 1) await server.sendToolListChanged();
      return text("flooded");
    case "lists":
      return text(String(lists));
    case "put":
      return text(`put: ${request.params.arguments?.value}`);
    case "late":
      return text(`late: ${request.params.arguments?.n}`);
    default:
      return { content: [{ type: "text", text: `unknown tool ${name}` }], isError: true };
  }
});

await server.connect(new StdioServerTransport());
if (mode === "garbage") {
  process.stdout.write("this is not JSON-RPC\n{\"half\": \n");
  setInterval(() => process.stdout.write("garbage line\n"), 50);
}
