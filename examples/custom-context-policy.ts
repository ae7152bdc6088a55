// A custom context policy: tool results over a budget are cut once, when they are written, and the
// cut version is frozen into the trajectory — later calls send the same bytes, so the cache holds.
import { createAgent, defineTool, type ContextPolicy } from "ctxkit";
import { createScriptedProvider } from "ctxkit/testing";

const maxCharacters = 200;

const truncateLargeResults: ContextPolicy = {
  name: "truncate-large-results",
  processToolResult: (result) =>
    result.content.length <= maxCharacters
      ? result
      : { ...result, content: `${result.content.slice(0, maxCharacters)}\n[… ${result.content.length - maxCharacters} more characters cut]` },
};

const bigLog = defineTool<Record<string, never>>({
  name: "read_log",
  description: "Returns the service log.",
  parameters: { type: "object", properties: {} },
  execute: async () => "GET /health 200\n".repeat(500),
});

const provider = createScriptedProvider({ turns: [{ toolCalls: [{ name: "read_log", arguments: {} }] }, "The log shows only health checks."] });
const agent = createAgent({ provider, system: "You read logs.", tools: [bigLog], context: [truncateLargeResults] });
await agent.run("Anything wrong in the log?").result();

const sent = provider.requests[1]!.messages.find((message) => message.role === "tool");
console.log(`the model saw ${sent?.role === "tool" ? sent.content.length : 0} characters of a ${"GET /health 200\n".length * 500}-character log`);
