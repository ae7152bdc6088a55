import { describe, expect, it } from "vitest";
import type { Tool, ToolContext } from "../types/index.js";
import { createDurableTool } from "./create-durable-tool.js";
import { createDurableClock, type DurableRunContext } from "./durable-run-context.js";

describe("a durable tool call's step", () => {
  it("is named with the call's id (bounded), so parallel calls replayed in another order cannot swap their results", async () => {
    const names: string[] = [];
    const context = {
      runId: "run-1",
      executorId: "worker-1",
      step: async <Result>(name: string, work: () => Promise<Result>) => (names.push(name), work()),
      receive: async () => undefined,
      inStep: () => false,
      now: () => 0,
      clock: createDurableClock(0),
    } as unknown as DurableRunContext;
    const read: Tool<{ path: string }> = { name: "read", description: "Reads.", parameters: { type: "object", properties: {} }, risk: "read", execute: async (args) => `read ${args.path}` };
    const wrapped = createDurableTool(read, context, { next: (() => { let n = 0; return () => n++; })() });
    const call = (toolCallId: string, path: string) => wrapped.execute({ path }, { toolCallId } as ToolContext);
    expect(await Promise.all([call("call-a", "a.txt"), call(`call-${"b".repeat(200)}`, "b.txt")])).toEqual([{ content: "read a.txt" }, { content: "read b.txt" }]);
    expect(names).toEqual(["tool:read:call-a", `tool:read:call-${"b".repeat(59)}`]);
  });
});
