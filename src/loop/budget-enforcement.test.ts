import { describe, expect, it } from "vitest";
import { createBudget } from "../context/budget/index.js";
import { createScriptedProvider } from "../providers/scripted/index.js";
import type { AgentEvent, BudgetApprovalRequest } from "../types/index.js";
import type { SessionSink } from "./agent-options.js";
import { createAgent } from "./create-agent.js";
import { createTestClock, createTestIds, weatherTool } from "./test-support.js";
import { createBudgetPolicy } from "../context/budget/create-budget-policy.js";
import { inheritPolicies } from "../context/compose-policy-gates.js";
import type { ContextPolicy } from "../context/context-policy.js";
import { budgetPolicyName, type BudgetPolicy } from "../context/budget/create-budget-policy.js";

/** A model that calls the weather tool forever (each turn a new city, so no repeated-call stop). */
const endlessCalls = () => createScriptedProvider({ turns: (_request, call) => ({ toolCalls: [{ name: "get_weather", arguments: { city: `City${call}` } }] }) });

async function collect(run: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

function virtualSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (milliseconds: number) => void delays.push(milliseconds) };
}

function agentWith(budget: ReturnType<typeof createBudget>, extra: { maxIterations?: number } = {}) {
  const provider = endlessCalls();
  const agent = createAgent({
    provider,
    system: "You check the weather.",
    tools: [weatherTool],
    settings: { maxOutputTokens: 50 },
    runtime: { clock: createTestClock(), createId: createTestIds(), maxIterations: extra.maxIterations ?? 200 },
    context: [createBudgetPolicy(budget)],
  });
  return { provider, agent };
}

const spentTokens = (events: AgentEvent[]) => events.reduce((sum, event) => sum + (event.type === "usage" ? event.usage.inputTokens + event.usage.outputTokens : 0), 0);

describe("budget enforcement in the loop", () => {
  it("stops a hard budget before the call that could exceed it, never after, with backpressure on the way", async () => {
    const { delays, sleep } = virtualSleep();
    const { agent, provider } = agentWith(createBudget({ session: { tokens: 60_000 }, sleep }));
    const events = await collect(agent.run("Weather everywhere, please."));
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: "run_end", stopReason: "budget_exceeded", error: { code: "budget_exceeded" } });
    expect(spentTokens(events)).toBeLessThanOrEqual(60_000);
    // The refused call was never sent: one body per reported usage.
    expect(provider.bodies.length).toBe(events.filter((event) => event.type === "usage").length);
    expect(provider.bodies.length).toBeGreaterThan(3);
    const backpressure = events.flatMap((event) => (event.type === "backpressure" ? [event.delayMs] : []));
    expect(new Set(backpressure).size).toBeGreaterThan(1);
    expect(delays).toEqual(backpressure);
    expect(backpressure.every((delay) => [50, 300, 750, 1500].includes(delay))).toBe(true);
    expect(backpressure).toEqual([...backpressure].sort((left, right) => left - right));
    expect(events.filter((event) => event.type === "warning" && event.code === "budget_threshold")).toHaveLength(1);
  });

  it("lets a soft budget run past its limit with one warning", async () => {
    const { agent } = agentWith(createBudget({ session: { tokens: 1500, mode: "soft" }, backpressure: false }), { maxIterations: 12 });
    const events = await collect(agent.run("Weather everywhere, please."));
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "max_iterations" });
    expect(spentTokens(events)).toBeGreaterThan(1500);
    expect(events.filter((event) => event.type === "warning" && event.code === "budget_exceeded")).toHaveLength(1);
  });

  it("asks before exceeding an approval budget, once, and stops cleanly when refused", async () => {
    const asked: BudgetApprovalRequest[] = [];
    const approving = agentWith(
      createBudget({ session: { tokens: 1500, mode: "approval" }, backpressure: false, confirm: async (request) => (asked.push(request), true) }),
      { maxIterations: 10 },
    );
    const approved = await collect(approving.agent.run("Weather everywhere, please."));
    expect(approved.at(-1)).toMatchObject({ stopReason: "max_iterations" });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.overruns[0]).toMatchObject({ dimension: "tokens", limit: 1500, status: { level: "session", mode: "approval" } });

    const refusing = agentWith(createBudget({ session: { tokens: 1500, mode: "approval" }, backpressure: false, confirm: async () => false }));
    const refused = await collect(refusing.agent.run("Weather everywhere, please."));
    expect(refused.at(-1)).toMatchObject({ type: "run_end", stopReason: "budget_exceeded", error: { message: expect.stringContaining("not approved") } });
    expect(spentTokens(refused)).toBeLessThanOrEqual(1500);
    // The trajectory ends with complete call/result pairs: the next run can go on.
    expect(refusing.agent.messages.at(-1)!.role).toBe("tool");
  });

  it("limits each task separately, and the session across tasks", async () => {
    const budget = createBudget({ session: { tokens: 5000 }, task: { tokens: 2000 }, backpressure: false });
    const { agent } = agentWith(budget);
    const first = await collect(agent.run("First."));
    expect(first.at(-1)).toMatchObject({ stopReason: "budget_exceeded", error: { message: expect.stringContaining("the task") } });
    const second = await collect(agent.run("Second."));
    expect(second.at(-1)).toMatchObject({ stopReason: "budget_exceeded" });
    expect(spentTokens(first)).toBeLessThanOrEqual(2000);
    expect(spentTokens(first) + spentTokens(second)).toBeLessThanOrEqual(5000);
  });

  it("gives a child a level of its own under the running task and records the levels with each run's start", async () => {
    const runStarts: Array<Parameters<SessionSink["appendRunStart"]>[0]> = [];
    const sink: SessionSink = {
      id: "s",
      appendMessage() {},
      appendRequest: () => 0,
      appendUsage() {},
      appendContextEdit() {},
      appendRunStart: (record) => void runStarts.push(record),
      appendRunEnd() {},
      flush: async () => undefined,
    };
    let childLevels: string[] = [];
    const provider = createScriptedProvider({ turns: [{ toolCalls: [{ name: "delegate", arguments: {} }] }, "Done."] });
    const agent = createAgent({
      provider,
      system: "s",
      session: sink,
      tools: [
        {
          name: "delegate",
          description: "Runs a sub-agent.",
          parameters: { type: "object", properties: {} },
          async execute(_args, context) {
            const inherited = inheritPolicies(context.agent!.policies as ContextPolicy[], { kind: "task", name: "explore", budget: { tokens: 1000 } });
            const child = inherited.find((policy) => policy.name === budgetPolicyName) as BudgetPolicy;
            childLevels = child.budget.status().map((level) => `${level.level}:${level.limits.tokens}`);
            return "ok";
          },
        },
      ],
      context: [createBudgetPolicy(createBudget({ session: { tokens: 100_000 }, task: { tokens: 50_000, mode: "soft" }, spent: { tokens: 10, costUsd: 0 } }))],
    });
    await agent.run("Go.").result();
    expect(childLevels).toEqual(["agent:1000", "task:50000", "session:100000"]);
    expect(runStarts[0]!.budget).toEqual([
      { level: "task", tokens: 50_000, mode: "soft", spentTokens: 0, spentCostUsd: 0 },
      { level: "session", tokens: 100_000, mode: "hard", spentTokens: 10, spentCostUsd: 0 },
    ]);
  });
});
