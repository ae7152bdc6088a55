import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBudget } from "../context/budget/index.js";
import { createAgent } from "../loop/create-agent.js";
import { weatherTool } from "../loop/test-support.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createSessionStore } from "./session-store.js";
import { recordedCalls, sessionSpend } from "./session-spend.js";
import type { Message } from "../types/index.js";
import { startSession } from "./start-session.js";
import { createBudgetPolicy } from "../context/budget/create-budget-policy.js";

const calling = () => createScriptedProvider({ turns: (_request, call) => ({ toolCalls: [{ name: "get_weather", arguments: { city: `City${call}` } }] }) });

async function runOnce(directory: string, id: string | undefined, limit: number) {
  const provider = calling();
  const store = createSessionStore({ directory });
  const started = await startSession(store, { ...(id ? { id } : {}), system: "You check the weather.", tools: [weatherTool], provider, settings: { maxOutputTokens: 20 } });
  const budget = createBudget({ session: { tokens: limit }, backpressure: false, spent: sessionSpend(started.calls) });
  const agent = createAgent({ provider, system: "You check the weather.", tools: [weatherTool], messages: started.messages, session: started.session, settings: { maxOutputTokens: 20 }, runtime: { maxIterations: 4 }, context: [createBudgetPolicy(budget)] });
  const result = await agent.run("More weather.").result();
  await started.session.close();
  return { result, spentBefore: sessionSpend(started.calls), id: started.session.id, store };
}

describe("budget spend across a resumed session", () => {
  it("continues the session budget from the usage the session recorded", async () => {
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-spend-"));
    const first = await runOnce(directory, undefined, 100_000);
    expect(first.result.stopReason).toBe("max_iterations");
    const firstTokens = first.result.usage.inputTokens + first.result.usage.outputTokens;

    // Resumed with a limit a little above what the first run spent: the earlier spend counts.
    const second = await runOnce(directory, first.id, firstTokens + 300);
    expect(second.spentBefore.tokens).toBe(firstTokens);
    expect(second.result.stopReason).toBe("budget_exceeded");
    const total = firstTokens + second.result.usage.inputTokens + second.result.usage.outputTokens;
    expect(total).toBeLessThanOrEqual(firstTokens + 300);

    const loaded = await first.store.load(first.id);
    expect(loaded.runs.at(-1)!.start.budget).toEqual([
      { level: "task", mode: "hard", spentTokens: 0, spentCostUsd: 0 },
      { level: "session", tokens: firstTokens + 300, mode: "hard", spentTokens: firstTokens, spentCostUsd: 0 },
    ]);
    expect(loaded.runs.at(-1)!.end).toMatchObject({ stopReason: "budget_exceeded", error: { code: "budget_exceeded" } });
  });

  it("prices the recorded calls with costOf", () => {
    const calls = [
      { usage: { inputTokens: 100, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 10, reasoningTokens: 0 }, model: "a" },
      { usage: { inputTokens: 200, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 20, reasoningTokens: 0 }, model: "b" },
    ];
    expect(sessionSpend(calls, (usage, model) => (model === "a" ? 1 : usage.outputTokens))).toEqual({ tokens: 330, costUsd: 21 });
  });
});

describe("recordedCalls", () => {
  it("adds what the session's sub-agents spent, from their task results, to its own calls", () => {
    const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens, reasoningTokens: 0 });
    const taskResult: Message = {
      role: "tool",
      toolCallId: "t1",
      toolName: "task",
      content: "child answer",
      isError: false,
      meta: {
        id: "m3",
        origin: "tool",
        createdAt: "2026-01-01T00:00:00.000Z",
        subAgent: { agent: "explore", stopReason: "final_answer", iterations: 2, usage: usage(900, 40), provider: "openai-compatible", model: "gpt-4.1-mini" },
      },
    };
    const calls = recordedCalls({
      usage: [{ type: "usage", request: 0, usage: usage(100, 10) }],
      requests: [{ model: "gpt-4.1" }] as never,
      log: [taskResult],
    });
    expect(calls.map((call) => call.model)).toEqual(["gpt-4.1", "gpt-4.1-mini"]);
    expect(sessionSpend(calls).tokens).toBe(1050);
  });
});
