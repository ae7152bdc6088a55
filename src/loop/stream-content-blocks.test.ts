import { afterEach, describe, expect, it } from "vitest";
import { createAnthropic } from "../providers/anthropic/create-anthropic.js";
import { anthropicSse, blockDelta, blockStart, blockStop, messageDelta, messageStart, messageStop } from "../providers/anthropic/test-support/fixtures.js";
import { createOpenAICompatible } from "../providers/openai-compatible/create-openai-compatible.js";
import { sseChunks, startLoopbackServer, type LoopbackServer } from "../testing/loopback-server.js";
import type { AgentEvent } from "../types/index.js";
import { createAgent } from "./create-agent.js";
import { weatherTool } from "./test-support.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const openAIChunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
});
const openAIText = (text: string) => ({ headers: { "content-type": "text/event-stream" }, chunks: sseChunks([openAIChunk({ content: text }), openAIChunk({}, "stop")], { done: true }) });

/** The block events of the first turn, without the turn number. */
async function blockEventsOf(run: AsyncIterable<AgentEvent>): Promise<unknown[]> {
  const events: unknown[] = [];
  for await (const event of run) {
    if (!/^(text|thinking|tool_call)_(start|delta|end)$/.test(event.type) || !("turn" in event) || event.turn !== 0) continue;
    const { turn: _turn, ...fields } = event;
    events.push(fields);
  }
  return events;
}

describe("content-block events through the loop", () => {
  it("gives thinking, text and two interleaved parallel tool calls from an OpenAI-compatible stream their final positions", async () => {
    const toolDelta = (calls: unknown[]) => openAIChunk({ tool_calls: calls });
    server = await startLoopbackServer([
      {
        headers: { "content-type": "text/event-stream" },
        chunks: sseChunks(
          [
            openAIChunk({ role: "assistant", content: "", reasoning_content: "Two cities." }),
            openAIChunk({ content: "Checking." }),
            toolDelta([{ index: 0, id: "call_paris", type: "function", function: { name: "get_weather", arguments: "" } }]),
            toolDelta([{ index: 1, id: "call_oslo", type: "function", function: { name: "get_weather", arguments: '{"city"' } }]),
            toolDelta([{ index: 0, function: { arguments: '{"city":"Paris"}' } }]),
            toolDelta([{ index: 1, function: { arguments: ':"Oslo"}' } }]),
            openAIChunk({}, "tool_calls"),
          ],
          { done: true },
        ),
      },
      openAIText("Both mild."),
    ]);
    const provider = createOpenAICompatible({ vendor: "deepseek", model: "deepseek-chat", baseURL: server.url, apiKey: "k", env: {} });
    const agent = createAgent({ provider, system: "s", tools: [weatherTool] });
    const events = await blockEventsOf(agent.run("weather in Paris and Oslo?"));

    expect(events).toEqual([
      { type: "thinking_start", index: 0 },
      { type: "thinking_delta", index: 0, delta: "Two cities." },
      { type: "text_start", index: 1 },
      { type: "text_delta", index: 1, delta: "Checking." },
      { type: "tool_call_start", index: 2, id: "call_paris", name: "get_weather" },
      { type: "tool_call_start", index: 3, id: "call_oslo", name: "get_weather" },
      { type: "tool_call_delta", index: 3, id: "call_oslo", delta: '{"city"' },
      { type: "tool_call_delta", index: 2, id: "call_paris", delta: '{"city":"Paris"}' },
      { type: "tool_call_delta", index: 3, id: "call_oslo", delta: ':"Oslo"}' },
      { type: "thinking_end", index: 0, thinking: "Two cities." },
      { type: "text_end", index: 1, text: "Checking." },
      { type: "tool_call_end", index: 2, id: "call_paris", name: "get_weather", argumentsText: '{"city":"Paris"}', arguments: { city: "Paris" } },
      { type: "tool_call_end", index: 3, id: "call_oslo", name: "get_weather", argumentsText: '{"city":"Oslo"}', arguments: { city: "Oslo" } },
    ]);
    const assistant = agent.messages.find((message) => message.role === "assistant");
    expect(assistant?.content.map((part) => part.type)).toEqual(["thinking", "text", "tool_call", "tool_call"]);
  });

  it("ends each Anthropic block at content_block_stop, with interleaved tool calls at their positions", async () => {
    server = await startLoopbackServer([
      anthropicSse([
        messageStart(),
        blockStart(0, { type: "thinking", thinking: "" }),
        blockDelta(0, { type: "thinking_delta", thinking: "Both." }),
        blockStop(0),
        blockStart(1, { type: "text", text: "" }),
        blockDelta(1, { type: "text_delta", text: "Checking." }),
        blockStop(1),
        blockStart(2, { type: "tool_use", id: "toolu_a", name: "get_weather", input: {} }),
        blockDelta(2, { type: "input_json_delta", partial_json: '{"city":' }),
        blockStart(3, { type: "tool_use", id: "toolu_b", name: "get_weather", input: {} }),
        blockDelta(3, { type: "input_json_delta", partial_json: '{"city":"Oslo"}' }),
        blockStop(3),
        blockDelta(2, { type: "input_json_delta", partial_json: '"Paris"}' }),
        blockStop(2),
        messageDelta("tool_use", 30),
        messageStop(),
      ]),
      anthropicSse([messageStart(), blockStart(0, { type: "text", text: "" }), blockDelta(0, { type: "text_delta", text: "Mild." }), blockStop(0), messageDelta("end_turn", 2), messageStop()]),
    ]);
    const provider = createAnthropic({ model: "claude-test", apiKey: "sk-ant-test", baseURL: `${server.url}/v1` });
    const agent = createAgent({ provider, system: "s", tools: [weatherTool] });
    const events = await blockEventsOf(agent.run("weather?"));

    expect(events).toEqual([
      { type: "thinking_start", index: 0 },
      { type: "thinking_delta", index: 0, delta: "Both." },
      { type: "thinking_end", index: 0, thinking: "Both." },
      { type: "text_start", index: 1 },
      { type: "text_delta", index: 1, delta: "Checking." },
      { type: "text_end", index: 1, text: "Checking." },
      { type: "tool_call_start", index: 2, id: "toolu_a", name: "get_weather" },
      { type: "tool_call_delta", index: 2, id: "toolu_a", delta: '{"city":' },
      { type: "tool_call_start", index: 3, id: "toolu_b", name: "get_weather" },
      { type: "tool_call_delta", index: 3, id: "toolu_b", delta: '{"city":"Oslo"}' },
      { type: "tool_call_end", index: 3, id: "toolu_b", name: "get_weather", argumentsText: '{"city":"Oslo"}', arguments: { city: "Oslo" } },
      { type: "tool_call_delta", index: 2, id: "toolu_a", delta: '"Paris"}' },
      { type: "tool_call_end", index: 2, id: "toolu_a", name: "get_weather", argumentsText: '{"city":"Paris"}', arguments: { city: "Paris" } },
    ]);
  });
});
