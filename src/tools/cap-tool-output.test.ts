import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { defineTool } from "./tool.js";
import type { AgentEvent } from "../types/index.js";
import { capToolOutput } from "./cap-tool-output.js";
import { createAgent } from "../loop/create-agent.js";
import { createToolOutputCap } from "./create-tool-output-cap.js";
import { createTestClock, createTestIds } from "../loop/test-support.js";

describe("capToolOutput", () => {
  it("keeps a short result as it is and cuts a long one to its start and end with a note", () => {
    expect(capToolOutput("short", 10)).toBe("short");
    const capped = capToolOutput(`${"a".repeat(50)}${"b".repeat(50)}`, 20);
    expect(capped.startsWith("a".repeat(10))).toBe(true);
    expect(capped.endsWith("b".repeat(10))).toBe(true);
    expect(capped).toContain("80 characters cut from the middle");
  });

  it("never splits a surrogate pair", () => {
    const capped = capToolOutput("🎉".repeat(20), 7);
    expect(capped).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

// The trial that found it: a 50 MB tool result stalled the event loop 2.6 s and peaked at 535 MB RSS,
// because the whole string went through compression and the session before anything cut it.
describe("the loop's tool result cap", () => {
  it("cuts a 50 MB result from a tool that does not page before anything else sees it", async () => {
    const hugeTool = defineTool<Record<string, never>>({
      name: "dump",
      description: "Returns far too much.",
      parameters: { type: "object", properties: {} },
      async execute() {
        return "x".repeat(50 * 1024 * 1024);
      },
    });
    const agent = createAgent({
      provider: createScriptedProvider({ turns: [{ toolCalls: [{ name: "dump", arguments: {} }] }, "Done."] }),
      system: "s",
      tools: [hugeTool],
      context: [createToolOutputCap({ maxCharacters: 100_000 })],
      prefixGuard: false,
      runtime: { clock: createTestClock(), createId: createTestIds() },
    });
    const events: AgentEvent[] = [];
    for await (const event of agent.run("go")) events.push(event);
    const result = events.find((event) => event.type === "tool_result");
    if (result?.type !== "tool_result") throw new Error("no tool result");
    expect(result.message.content.length).toBeLessThan(100_300);
    expect(result.message.content).toContain("characters cut from the middle");
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer" });
  }, 30_000);
});
