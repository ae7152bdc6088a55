import { describe, expect, it } from "vitest";
import type { ContextPolicy } from "../context/context-policy.js";
import type { ToolCallInfo } from "../loop/agent-options.js";
import { createAgent } from "../loop/create-agent.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import type { AgentEvent, ToolMessage, ToolSource } from "../types/index.js";
import { connectMcpServers } from "./connect-mcp-servers.js";
import { createMcpPolicy } from "./create-mcp-policy.js";
import { scriptServer } from "./test-support/mcp-test-servers.js";
import { resolveDeferredTools } from "../tools/search/resolve-deferred-tools.js";

// A library agent given the connections' late tools: a tool the real stdio server adds mid-run is
// reached through call_tool and checked, confirmed and tagged like a direct call.
describe("an agent given the MCP connections' late tools", () => {
  it("has call_tool from the first call, asks to confirm the added tool, and tags its result as external", async () => {
    const mcp = await connectMcpServers({ script: scriptServer() }, { defer: "never" });
    try {
      const provider = createScriptedProvider({
        turns: [
          { toolCalls: [{ name: "call_tool", arguments: { name: "mcp__script__late", arguments: { n: 1 } } }] },
          { toolCalls: [{ name: "mcp__script__add_tool", arguments: {} }] },
          { toolCalls: [{ name: "call_tool", arguments: { name: "mcp__script__late", arguments: { n: 2 } } }] },
          { toolCalls: [{ name: "call_tool", arguments: { name: "mcp__script__late", arguments: { n: 3 } } }] },
          { toolCalls: [{ name: "mcp__script__late", arguments: { n: 4 } }] },
          "Done.",
        ],
      });
      const asked: ToolCallInfo[] = [];
      const sources = new Map<string, ToolSource | undefined>();
      const recorder: ContextPolicy = {
        name: "source-recorder",
        processToolResult(message: ToolMessage, info) {
          sources.set(message.toolCallId, info.source);
          return message;
        },
      };
      const policy = createMcpPolicy(mcp);
      const agent = createAgent({
        provider,
        system: "You use MCP tools.",
        ...resolveDeferredTools({ tools: [...mcp.tools], context: [policy, recorder], toolSearch: { lateTools: mcp.lateTools } }),
        prefixGuard: { strict: true },
        // add_tool is approved; the first call to the late tool is declined, the next ones approved.
        confirmToolCall: async (call) => {
          asked.push(call);
          return call.name !== "mcp__script__late" || asked.filter((info) => info.name === "mcp__script__late").length > 1;
        },
      });
      const events: AgentEvent[] = [];
      for await (const event of agent.run("Use the late tool.")) events.push(event);
      expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
      expect(provider.requests[0]!.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["call_tool", "tool_search"]));
      for (const request of provider.requests) expect(JSON.stringify(request.tools)).toBe(JSON.stringify(provider.requests[0]!.tools));

      const results = agent.messages.filter((message): message is ToolMessage => message.role === "tool");
      // Before the server added it, the tool is unknown; then declined once, then run — through call_tool and directly.
      expect(results[0]!.content).toContain("'mcp__script__late' is not a tool tool_search can find");
      expect(results[2]).toMatchObject({ toolName: "mcp__script__late", isError: true });
      expect(results[2]!.content).toContain("The user declined this call to 'mcp__script__late'");
      expect(results[3]).toMatchObject({ toolName: "mcp__script__late", isError: false, content: "late: 3" });
      expect(results[4]).toMatchObject({ toolName: "mcp__script__late", isError: false, content: "late: 4" });
      expect(asked.map((call) => call.name)).toEqual(["mcp__script__add_tool", "mcp__script__late", "mcp__script__late", "mcp__script__late"]);
      expect(sources.get(results[3]!.toolCallId)).toBe("external");
      policy.dispose();
    } finally {
      await mcp.close();
    }
  }, 60_000);
});
