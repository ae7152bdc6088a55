import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { UsageError } from "../types/index.js";
import { createAgent } from "./create-agent.js";

describe("misusing a run or an agent", () => {
  it("refuses a second run while one is in flight with agent_busy", async () => {
    const agent = createAgent({ provider: createScriptedProvider({ turns: ["one", "two"] }), system: "s" });
    const first = agent.run("first")[Symbol.asyncIterator]();
    await first.next();
    const second = agent.run("second").result();
    await expect(second).rejects.toBeInstanceOf(UsageError);
    await expect(second).rejects.toMatchObject({ code: "agent_busy", message: expect.stringContaining("await the current run") });
    while (!(await first.next()).done) {
      // let the first run finish
    }
  });

  it("rejects result() with run_abandoned when the consumer left the event loop early", async () => {
    const agent = createAgent({ provider: createScriptedProvider({ turns: ["one"] }), system: "s" });
    const handle = agent.run("hi");
    for await (const _event of handle) break;
    await expect(handle.result()).rejects.toMatchObject({ name: "UsageError", code: "run_abandoned" });
  });

  // A non-string became the user message's content; with a session the writer refused it as a bad run_start record.
  it.each([undefined, null, 42, ["a"]])("rejects a run whose input is %j with run_input_invalid, storing nothing", async (input) => {
    const agent = createAgent({ provider: createScriptedProvider({ turns: ["ok"] }), system: "s" });
    await expect(agent.run(input as unknown as string).result()).rejects.toMatchObject({ name: "UsageError", code: "run_input_invalid", message: expect.stringContaining("agent.run() takes the person's message as a string") });
    expect(agent.messages).toEqual([]);
  });
});
