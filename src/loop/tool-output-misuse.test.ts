import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import type { Tool } from "../types/index.js";
import { createAgent } from "./create-agent.js";

// Tools written in plain JavaScript break the types' promise: what they return or how they throw
// must become an error result the model sees, never a crash of the run.
function runWith(execute: (...args: unknown[]) => unknown) {
  const tool = { name: "t", description: "d", parameters: { type: "object", properties: {} }, execute } as unknown as Tool;
  const provider = createScriptedProvider({ turns: [{ toolCalls: [{ name: "t", arguments: {} }] }, "done"] });
  return createAgent({ provider, system: "s", tools: [tool] });
}

describe("a tool that returns what the types forbid", () => {
  it.each([
    ["undefined", async () => undefined, "returned undefined"],
    ["a number", async () => 42, "returned number"],
    ["an object without content", async () => ({ a: 1 }), "returned an object without a string `content`"],
    ["null", async () => null, "returned null"],
  ])("%s becomes an error result naming the fix, and the run goes on", async (_label, execute, said) => {
    const agent = runWith(execute);
    const result = await agent.run("go").result();
    expect(result.stopReason).toBe("final_answer");
    const toolMessage = agent.messages.find((message) => message.role === "tool");
    expect(toolMessage).toMatchObject({ isError: true, content: expect.stringContaining(`'t' ${said}; a tool's execute must resolve to a string or { content: string }`) });
  });

  it("a synchronous execute works, and a synchronous throw is an error result", async () => {
    const returning = runWith(() => "plain");
    await returning.run("go").result();
    expect(returning.messages.find((message) => message.role === "tool")).toMatchObject({ content: "plain" });
    const throwing = runWith(() => {
      throw new Error("boom");
    });
    expect((await throwing.run("go").result()).stopReason).toBe("final_answer");
    expect(throwing.messages.find((message) => message.role === "tool")).toMatchObject({ isError: true, content: "Error (failed): 't' failed: boom" });
  });
});
