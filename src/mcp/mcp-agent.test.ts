import { describe, expect, it } from "vitest";
import { createAgent } from "../loop/create-agent.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { derivedOf, type AgentEvent } from "../types/index.js";
import { connectMcpServers } from "./connect-mcp-servers.js";
import { createMcpPolicy } from "./create-mcp-policy.js";
import { scriptServer } from "./test-support/mcp-test-servers.js";

// An agent with a real stdio MCP server (the tests' script server) whose tools change mid-run.
describe("an agent with MCP tools whose list changes mid-run", () => {
  it("appends the deltas after the calls that caused them, with no cache break", async () => {
    const mcp = await connectMcpServers({ script: scriptServer() }, { defer: "never", confirm: "never" });
    try {
      const provider = createScriptedProvider({
        turns: [
          { toolCalls: [{ name: "mcp__script__add_tool", arguments: {} }] },
          { toolCalls: [{ name: "mcp__script__remove_tool", arguments: {} }] },
          { toolCalls: [{ name: "mcp__script__echo", arguments: { message: "gone?" } }] },
          "Done.",
        ],
      });
      const policy = createMcpPolicy(mcp);
      const agent = createAgent({ provider, system: "You use MCP tools.", tools: [...mcp.tools], context: [policy], prefixGuard: { strict: true } });
      const events: AgentEvent[] = [];
      const handle = agent.run("Change the tools.");
      for await (const event of handle) events.push(event);
      expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
      expect(events.filter((event) => event.type === "cache_break")).toEqual([]);
      const deltas = agent.messages.flatMap((message) => {
        const derived = derivedOf(message, "mcp_tools");
        return derived ? [derived] : [];
      });
      // A call that changes the list returns once the change is known, so each delta follows its call's result.
      expect(deltas).toEqual([
        { kind: "mcp_tools", server: "script", added: ["mcp__script__late"], removed: [] },
        { kind: "mcp_tools", server: "script", added: [], removed: ["mcp__script__echo"] },
      ]);
      const roles = agent.messages.map((message) => (derivedOf(message, "mcp_tools") ? "delta" : message.role));
      expect(roles).toEqual(["user", "assistant", "tool", "delta", "assistant", "tool", "delta", "assistant", "tool", "assistant"]);
      const echo = agent.messages.filter((message) => message.role === "tool").at(-1);
      expect(echo).toMatchObject({ isError: true });
      // The strict prefix guard compared every request's wire body with the previous one (it throws on an
      // undeclared break); the tools sent stay the ones of the first call.
      expect(provider.requests).toHaveLength(4);
      for (const request of provider.requests) expect(JSON.stringify(request.tools)).toBe(JSON.stringify(provider.requests[0]!.tools));
      policy.dispose();
    } finally {
      await mcp.close();
    }
  }, 60_000);
});
