import { describe, expect, it } from "vitest";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import type { Tool } from "../../types/index.js";
import { applyDeferTools } from "./apply-defer-tools.js";

const tool = (name: string, marked = false): Tool => ({
  name,
  description: `Does ${name} with care; a description long enough to cost some tokens when it is sent to the model on every call.`,
  parameters: { type: "object", properties: { target: { type: "string", description: "What to act on." } } },
  ...(marked ? { deferred: true } : {}),
  execute: async () => "ok",
});

describe("applyDeferTools", () => {
  const tools = Array.from({ length: 20 }, (_, index) => tool(`tool_${index}`));

  it("auto defers every tool once the definitions pass 10% of the window, and none below it", () => {
    const small = applyDeferTools(tools, { mode: "auto", contextWindow: 100_000 });
    expect(small.deferred).toBe(false);
    expect(small.tools.filter((entry) => entry.deferred)).toHaveLength(0);
    expect(small.definitionTokens).toBeLessThan(small.thresholdTokens);

    const window = Math.floor((small.definitionTokens * 10) / 1.2); // definitions are 12% of this window
    const large = applyDeferTools(tools, { mode: "auto", contextWindow: window });
    expect(large.deferred).toBe(true);
    expect(large.tools.every((entry) => entry.deferred === true)).toBe(true);
    expect(large.thresholdTokens).toBe(Math.floor(window * 0.1));
  });

  it("counts with the counter it is given (exact Qwen3 tokens)", () => {
    const qwen3 = getTokenCounter("qwen3");
    const decision = applyDeferTools(tools, { mode: "auto", counter: qwen3 });
    const expected = tools.reduce((sum, entry) => sum + qwen3.count(JSON.stringify({ name: entry.name, description: entry.description, parameters: entry.parameters })), 0);
    expect(decision.definitionTokens).toBe(expected);
  });

  it("off keeps the tools the caller marked, all defers every tool, without touching the caller's objects", () => {
    const mixed = [tool("kept"), tool("marked", true)];
    expect(applyDeferTools(mixed, "off").tools.map((entry) => entry.deferred === true)).toEqual([false, true]);
    const all = applyDeferTools(mixed, "all");
    expect(all.tools.every((entry) => entry.deferred === true)).toBe(true);
    expect(mixed[0]!.deferred).toBeUndefined();
  });

  it("rejects an unknown mode with the allowed values", () => {
    expect(() => applyDeferTools([], "sometimes" as never)).toThrow(/"auto", "all" or "off"/);
  });
});
