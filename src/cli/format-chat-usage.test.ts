import { describe, expect, it } from "vitest";
import { estimateCost, findModelPricing } from "../tokens/pricing.js";
import { emptyUsage, type SubAgentRun, type Usage } from "../types/index.js";
import { formatChatUsage } from "./format-chat-usage.js";

const usage = (inputTokens: number, outputTokens: number): Usage => ({ ...emptyUsage(), inputTokens, outputTokens });
const run = (model: string, tokens: Usage): SubAgentRun => ({ agent: "explore", stopReason: "final_answer", iterations: 1, usage: tokens, provider: "openai", model });

describe("chat's /usage with sub-agents", () => {
  it("prices each sub-agent run by its own model", () => {
    const own = [usage(10_000, 200)];
    const runs = [run("gpt-4.1-mini", usage(50_000, 1_000)), run("gpt-4.1", usage(20_000, 500))];
    const text = formatChatUsage(own, runs, "gpt-4.1");
    const price = (model: string, tokens: Usage) => estimateCost(tokens, findModelPricing(model)!);
    const children = price("gpt-4.1-mini", runs[0]!.usage) + price("gpt-4.1", runs[1]!.usage);
    expect(text).toContain(`sub-agents (task tool): 2 runs, 70,000 prompt tokens (0.0% cached), 1,500 output, cost $${children.toFixed(4)}`);
    expect(text).toContain(`total with sub-agents: 80,000 prompt tokens (0.0% cached), 1,700 output, cost $${(children + price("gpt-4.1", own[0]!)).toFixed(4)}`);
  });

  it("says the cost is unknown when a run's model has no price, and shows only the agent's line without runs", () => {
    expect(formatChatUsage([usage(10, 1)], [run("someone-elses-model", usage(5, 1))], "gpt-4.1")).toMatch(/sub-agents \(task tool\): 1 run, .*, cost unknown\ntotal with sub-agents: .*, cost unknown$/);
    expect(formatChatUsage([usage(10, 1)], [], "gpt-4.1")).not.toContain("sub-agents");
  });
});
