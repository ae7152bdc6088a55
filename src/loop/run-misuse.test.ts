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
});
