import { describe, expect, it } from "vitest";
import { createScriptedProvider, type ScriptedTurn } from "../providers/scripted/index.js";
import type { AgentEvent } from "../types/index.js";
import { createAgent } from "./create-agent.js";
import { createTestClock, createTestIds, weatherTool } from "./test-support.js";

// DeepSeek's insufficient_system_resource, GLM's network_error and vLLM's abort end a stream normally
// with a failure as the finish reason (the stop reason "error"): the cut text was the run's final answer.
describe("an answer the server ended with a failure", () => {
  async function run(turn: ScriptedTurn) {
    const agent = createAgent({ provider: createScriptedProvider({ turns: [turn] }), system: "s", tools: [weatherTool], runtime: { clock: createTestClock(), createId: createTestIds() } });
    const events: AgentEvent[] = [];
    for await (const event of agent.run("weather?")) events.push(event);
    return { events, messages: agent.messages };
  }

  it("ends the run with an error, keeping the partial text, not as a final answer", async () => {
    const { events } = await run({ text: "The answer is", stopReason: "error" });
    expect(events).toContainEqual(expect.objectContaining({ type: "error", code: "provider_http_error" }));
    const end = events.at(-1);
    expect(end).toMatchObject({ type: "run_end", stopReason: "error" });
    const turnEnd = events.find((event) => event.type === "turn_end");
    expect(turnEnd?.type === "turn_end" && turnEnd.message.content).toEqual([{ type: "text", text: "The answer is" }]);
  });

  it("drops the calls it cut, so no call is left without a result", async () => {
    const { events, messages } = await run({ text: "Checking.", toolCalls: [{ name: "get_weather", argumentsText: '{"city":"Pa' }], stopReason: "error" });
    expect(events.some((event) => event.type === "tool_result")).toBe(false);
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "Checking." }], stopReason: "error" });
  });
});

// Anthropic's refusal can carry no text at all (vercel/ai's recorded anthropic-refusal stream:
// message_start, then message_delta with stop_reason "refusal"): the run ended as an empty answer, unsaid.
describe("an answer the provider stopped for its content", () => {
  it("ends as the answer it is, with a content_filtered warning naming the provider's reason", async () => {
    const agent = createAgent({ provider: createScriptedProvider({ turns: [{ text: "", stopReason: "content_filter" }] }), system: "s", tools: [], runtime: { clock: createTestClock(), createId: createTestIds() } });
    const events: AgentEvent[] = [];
    for await (const event of agent.run("?")) events.push(event);
    expect(events).toContainEqual({ type: "warning", code: "content_filtered", message: "The provider stopped the model's answer for its content (content_filter: a refusal or a content filter), so the answer may be empty or cut short." });
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer", finalText: "" });
  });
});
