import { describe, expect, it } from "vitest";
import { createAgent } from "../../loop/create-agent.js";
import { createTestClock, createTestIds, weatherTool } from "../../loop/test-support.js";
import { createScriptedProvider, type ScriptedTurn } from "../../providers/scripted/index.js";
import { createEventRenderer } from "../render-events.js";
import { createTerminalStyle } from "../terminal-style.js";
import { engineDemoWarningText } from "./engine-demo-warning.js";

/** What `ctxkit demo --engine`'s renderer prints for a run whose one answer is `turn`. */
async function demoOutput(turn: ScriptedTurn): Promise<string> {
  let output = "";
  const renderer = createEventRenderer({ write: (text) => (output += text), style: createTerminalStyle(false), spinner: false, warningText: engineDemoWarningText });
  const agent = createAgent({ provider: createScriptedProvider({ turns: [turn, "Done."] }), system: "s", tools: [weatherTool], runtime: { clock: createTestClock(), createId: createTestIds() } });
  for await (const event of agent.run("?")) renderer.handle(event);
  renderer.stop();
  return output;
}

// The demo's engine limit is fixed and takes no flag: "raise --max-output-tokens" sent a person to a
// flag `ctxkit demo` refuses.
describe("ctxkit demo --engine's output_truncated warning", () => {
  it.each([
    ["an answer cut", { text: "noise noise", stopReason: "length" } as ScriptedTurn, "warning: The model's answer was cut at the output token limit. The demo's limit is fixed at 120 tokens"],
    ["a call cut", { toolCalls: [{ name: "get_weather", argumentsText: '{"city": "Va' }], stopReason: "length" } as ScriptedTurn, "inside a tool call's arguments; the call fails and the model is told to split it. The demo's limit is fixed at 120 tokens"],
  ])("says the limit is the demo's own for %s, not a flag to raise", async (_case, turn, said) => {
    const output = await demoOutput(turn);
    expect(output).toContain(said);
    expect(output).not.toMatch(/[Rr]aise (--max-output-tokens|maxOutputTokens)/);
  });
});
