// Deferred tools, offline: 30 tools stay out of the `tools` array; the model finds one with
// tool_search (its definition is appended to the conversation) and calls it through call_tool.
// The prefix guard is strict, so any change to bytes already sent would end the run.
import { assembleAgent, defineTool } from "ctxkit";
import { createScriptedProvider } from "ctxkit/testing";

const tools = Array.from({ length: 30 }, (_, index) =>
  defineTool<{ id: string }>({
    name: index === 7 ? "get_invoice" : `admin_task_${index}`,
    description: index === 7 ? "Fetch an invoice by its id." : `Administrative task number ${index}.`,
    parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    deferred: true,
    execute: async ({ id }) => JSON.stringify({ id, total: 120 }),
  }),
);

const provider = createScriptedProvider({
  turns: [
    { toolCalls: [{ name: "tool_search", arguments: { query: "invoice" } }] },
    { toolCalls: [{ name: "call_tool", arguments: { name: "get_invoice", arguments: { id: "INV-7" } } }] },
    "Invoice INV-7 totals 120.",
  ],
});
// assembleAgent adds the tool-search policy that serves deferred tools (createAgent alone is the bare loop).
const { agent } = await assembleAgent({ provider, system: "You are a billing assistant.", tools, prefixGuard: { strict: true } });
const result = await agent.run("What does invoice INV-7 total?").result();

console.log(`tools sent: ${provider.requests[0]!.tools.map((tool) => tool.name).join(", ")}`);
const discovery = agent.messages.find((message) => message.meta.derived?.kind === "tool_discovery");
console.log(`discovered: ${JSON.stringify(discovery?.meta.derived)}`);
console.log(`[${result.stopReason}] ${result.finalText}`);
