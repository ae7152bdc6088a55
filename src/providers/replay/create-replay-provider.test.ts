import { describe, expect, it } from "vitest";
import { createAgent } from "../../loop/create-agent.js";
import { defineTool } from "../../tools/tool.js";
import { createReplayProvider } from "./create-replay-provider.js";

describe("replay provider", () => {
  it("replays recorded assistant turns, tool-call ids and argument strings exactly", async () => {
    const transcript = [
      { role: "system", content: "policy" },
      { role: "user", content: "cancel my booking" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_abc", type: "function", function: { name: "get_user_details", arguments: '{"user_id": "mia_li_3668"}' } }] },
      { role: "tool", tool_call_id: "call_abc", name: "get_user_details", content: "{}" },
      { role: "assistant", content: "Done." },
    ];
    const lookup = defineTool<{ user_id: string }>({
      name: "get_user_details",
      description: "Look up a user.",
      parameters: { type: "object", properties: { user_id: { type: "string" } }, required: ["user_id"] },
      execute: async ({ user_id }) => `user ${user_id}`,
    });
    const agent = createAgent({ provider: createReplayProvider({ transcript }), system: "policy", tools: [lookup] });
    const result = await agent.run("cancel my booking").result();
    expect(result.finalText).toBe("Done.");
    const call = result.messages[1];
    expect(call?.role === "assistant" && call.content[0]).toEqual({
      type: "tool_call",
      id: "call_abc",
      name: "get_user_details",
      argumentsText: '{"user_id": "mia_li_3668"}',
      arguments: { user_id: "mia_li_3668" },
    });
    expect(result.messages[2]).toMatchObject({ role: "tool", content: "user mia_li_3668" });
  });
});
