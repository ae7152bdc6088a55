import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import type { AgentEvent } from "../types/index.js";
import { createAgent } from "./create-agent.js";
import { createTestClock, createTestIds, weatherTool } from "./test-support.js";

// A call cut by the output token limit (finish_reason "length", stop_reason "max_tokens") has
// arguments that end mid-JSON. Told only "not valid JSON, call again", the model wrote the same
// long call and was cut at the same place, turn after turn.
describe("a tool call cut at the output token limit", () => {
  async function run(stopReason: "length" | "tool_calls") {
    const provider = createScriptedProvider({
      turns: [{ toolCalls: [{ name: "get_weather", argumentsText: '{"city": "Vanc' }], stopReason }, "Done."],
    });
    const agent = createAgent({ provider, system: "s", tools: [weatherTool], runtime: { clock: createTestClock(), createId: createTestIds() } });
    const events: AgentEvent[] = [];
    for await (const event of agent.run("weather?")) events.push(event);
    const result = events.find((event) => event.type === "tool_result");
    return { events, result: result?.type === "tool_result" ? result.message.content : "" };
  }

  it("tells the model its call was cut and to split it, and warns the caller", async () => {
    const { events, result } = await run("length");
    expect(result).toContain("were cut off: your answer reached the output token limit inside this call");
    expect(result).toContain("split a long text into several smaller calls");
    expect(events).toContainEqual(expect.objectContaining({ type: "warning", code: "output_truncated" }));
  });

  it("keeps the malformed-JSON message for a call that was not cut", async () => {
    const { events, result } = await run("tool_calls");
    expect(result).toContain("are not valid JSON");
    expect(events.some((event) => event.type === "warning" && event.code === "output_truncated")).toBe(false);
  });

  // Only the answer's last call can be cut; an earlier call whose JSON does not parse was malformed.
  it("tells only the last call it was cut; an earlier malformed call keeps the malformed-JSON message", async () => {
    const provider = createScriptedProvider({
      turns: [{ toolCalls: [{ name: "get_weather", argumentsText: '{"city": Oslo}' }, { name: "get_weather", argumentsText: '{"city": "Vanc' }], stopReason: "length" }, "Done."],
    });
    const agent = createAgent({ provider, system: "s", tools: [weatherTool], runtime: { clock: createTestClock(), createId: createTestIds() } });
    const results: string[] = [];
    for await (const event of agent.run("weather?")) if (event.type === "tool_result") results.push(event.message.content);
    expect(results).toHaveLength(2);
    expect(results[0]).toContain("are not valid JSON");
    expect(results[0]).not.toContain("cut off");
    expect(results[1]).toContain("were cut off: your answer reached the output token limit inside this call");
  });
});
