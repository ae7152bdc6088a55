// A tool-using agent, offline: the scripted provider plays the model's turns, so the tool, the
// loop and the events are real and no key is needed. Swap in createOpenAICompatible(...) for a model.
import { createAgent, defineTool } from "ctxkit";
import { createScriptedProvider } from "ctxkit/testing";

const weather = defineTool<{ city: string }>({
  name: "get_weather",
  description: 'Current weather for a city. Example: {"city": "Vancouver"}',
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  parallelSafe: true,
  execute: async ({ city }) => JSON.stringify({ city, tempC: 14, sky: "rain" }),
});

const provider = createScriptedProvider({
  turns: [{ toolCalls: [{ name: "get_weather", arguments: { city: "Vancouver" } }] }, "It is 14 °C and raining in Vancouver."],
});

const agent = createAgent({ provider, system: "You are a weather assistant.", tools: [weather] });

for await (const event of agent.run("What's the weather in Vancouver?")) {
  if (event.type === "tool_call_end") console.log(`→ ${event.name} ${event.argumentsText}`);
  if (event.type === "tool_result") console.log(`← ${event.message.content}`);
  if (event.type === "text_delta") process.stdout.write(event.delta);
  if (event.type === "run_end") console.log(`\n[${event.stopReason}] after ${event.iterations} model calls`);
}
