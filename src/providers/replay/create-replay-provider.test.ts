import { describe, expect, it } from "vitest";
import { createAgent } from "../../loop/create-agent.js";
import { defineTool } from "../../tools/tool.js";
import { createScriptedProvider } from "../scripted/create-scripted-provider.js";
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

  // A program replaying one of its own sessions (store.load(id).messages) got "[object Object],…" as
  // the model's text and none of its tool calls: only OpenAI's string content and tool_calls were read.
  it("replays a ctxkit session's assistant messages: text, thinking and tool calls from their parts", async () => {
    const echo = defineTool<{ s: string }>({ name: "echo", description: "Echo s.", parameters: { type: "object", properties: { s: { type: "string" } }, required: ["s"] }, execute: async ({ s }) => `echo ${s}` });
    const recorded = createAgent({ provider: createScriptedProvider({ turns: [{ text: "let me", thinking: "hmm", toolCalls: [{ id: "call_7", name: "echo", arguments: { s: "x" } }] }, "final"] }), system: "s", tools: [echo] });
    await recorded.run("go").result();
    const agent = createAgent({ provider: createReplayProvider({ transcript: recorded.messages }), system: "s", tools: [echo] });
    const result = await agent.run("go").result();
    expect(result.finalText).toBe("final");
    expect(agent.messages.map((message) => message.content)).toEqual(recorded.messages.map((message) => message.content));
    expect(result.messages[1]).toMatchObject({ role: "assistant", content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "let me" }, { type: "tool_call", id: "call_7", name: "echo", argumentsText: '{"s":"x"}' }] });
  });

  // A session with a paused turn (Anthropic's pause_turn) replayed it as an answer: the run ended on
  // the half-done turn and the rest of the recording was never replayed.
  it("replays a paused turn as paused, so the run goes on to the recorded answer", async () => {
    const recorded = createAgent({ provider: createScriptedProvider({ turns: [{ text: "Searching…", stopReason: "paused" }, "It says hello."] }), system: "s", tools: [] });
    await recorded.run("what does it say?").result();
    expect(recorded.messages.map((message) => message.role === "assistant" && message.stopReason)).toEqual([false, "paused", "stop"]);
    const agent = createAgent({ provider: createReplayProvider({ transcript: recorded.messages }), system: "s", tools: [] });
    const result = await agent.run("what does it say?").result();
    expect(result).toMatchObject({ stopReason: "final_answer", finalText: "It says hello.", iterations: 2 });
    expect(agent.messages.map((message) => message.role === "assistant" && message.stopReason)).toEqual([false, "paused", "stop"]);
  });

  it("names a missing transcript (it was a TypeError reading 'filter')", () => {
    expect(() => createReplayProvider({} as never)).toThrow(expect.objectContaining({ name: "ConfigError", code: "option_invalid", message: expect.stringContaining("createReplayProvider needs `transcript`") }));
  });

  it("refuses content that is neither text nor parts with a TranscriptError", () => {
    expect(() => createReplayProvider({ transcript: [{ role: "assistant", content: 42 } as { role: string }] })).toThrow(expect.objectContaining({ code: "transcript_invalid" }));
  });
});
