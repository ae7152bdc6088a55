import { describe, expect, it } from "vitest";
import { createAgent, type AgentEvent, type Message, type ModelRequest } from "../src/index.js";
import { createStatusBar, isStatusMessage, type StatusBarMode } from "../src/context/status-bar/index.js";
import { createScriptedProvider } from "../src/testing.js";
import { createTestClock } from "../src/loop/test-support.js";
import { createSupportDeskTools } from "../src/bench/status-bar/support-desk-tools.js";
import { supportDeskCallPlan, supportDeskLimits, supportDeskRequest, supportDeskSystemPrompt, supportDeskTurns } from "../src/bench/status-bar/support-desk-scenario.js";
import type { ScriptedToolCall } from "../src/providers/scripted/index.js";

const environment = { workingDirectory: "/work/desk", os: "linux 6.8 (x64)", shell: "/bin/bash", runtime: "node v20.0.0" };

/** What the status must say before call `k`: counted independently from the script, not from the trajectory. */
function expectedCounts(plan: ScriptedToolCall[][], k: number) {
  const perTool: Record<string, number> = {};
  const perCompany: Record<string, number> = {};
  let lookupFailuresInRow = 0;
  let badLookups = 0;
  let todo: Record<string, string> = {};
  for (const call of plan.slice(0, k).flat()) {
    perTool[call.name] = (perTool[call.name] ?? 0) + 1;
    const args = call.arguments as Record<string, unknown>;
    if (call.name === "phone_call") perCompany[args.company as string] = (perCompany[args.company as string] ?? 0) + 1;
    if (call.name === "lookup_account") {
      const fails = args.account_id === "xfinity-7";
      lookupFailuresInRow = fails ? lookupFailuresInRow + 1 : 0;
      if (fails) badLookups++;
    }
    if (call.name === "rewrite_todo_list") todo = Object.fromEntries((args.items as Array<{ id: string; status: string }>).map((item) => [item.id, item.status]));
    if (call.name === "update_todo_status") for (const update of args.updates as Array<{ id: string; status: string }>) todo[update.id] = update.status;
  }
  const total = Object.values(perTool).reduce((sum, count) => sum + count, 0);
  return { perTool, perCompany, lookupFailuresInRow, badLookups, todo, total };
}

function statusOf(request: ModelRequest, mode: "replace" | "append"): string {
  if (mode === "replace") {
    expect(request.messages.some(isStatusMessage)).toBe(false);
    return request.tail!.content;
  }
  expect(request.tail).toBeUndefined();
  const last = request.messages.at(-1)!;
  expect(isStatusMessage(last)).toBe(true);
  return (last as Extract<Message, { role: "user" }>).content;
}

function number(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  return match ? Number(match[1]) : 0;
}

async function runFiftyCalls(mode: StatusBarMode) {
  const decisions: string[] = [];
  const statusBar = createStatusBar({ mode, limits: supportDeskLimits, environment, onDecision: (decision) => decisions.push(decision.mode) });
  const provider = createScriptedProvider({ turns: supportDeskTurns(50) });
  const agent = createAgent({
    provider,
    system: supportDeskSystemPrompt,
    tools: createSupportDeskTools(),
    context: [statusBar],
    prefixGuard: { strict: true },
    runtime: { clock: createTestClock("2025-09-14T10:30:00.000Z") },
  });
  const events: AgentEvent[] = [];
  for await (const event of agent.run(supportDeskRequest)) events.push(event);
  return { provider, events, decisions };
}

describe("the status bar over a 50-call scripted run", () => {
  it.each(["replace", "append", "auto"] as const)("is the last message of every request, with the true counts, and no undeclared break (%s)", async (mode) => {
    const { provider, events, decisions } = await runFiftyCalls(mode);
    expect(events.filter((event) => event.type === "error" || event.type === "cache_break" || event.type === "warning")).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "run_end", stopReason: "final_answer", iterations: 50 });
    expect(provider.requests).toHaveLength(50);
    const effective = mode === "auto" ? (decisions[0] as "replace" | "append") : mode;
    if (mode === "auto") expect(decisions).toHaveLength(1);

    const plan = supportDeskCallPlan(50);
    for (const [k, request] of provider.requests.entries()) {
      const status = statusOf(request, effective);
      const expected = expectedCounts(plan, k);
      expect(status.startsWith("<agent_status>\n") && status.endsWith("\n</agent_status>")).toBe(true);
      expect(number(status, /tool_calls: (\d+)/)).toBe(expected.total);
      for (const tool of ["phone_call", "web_search", "lookup_account", "rewrite_todo_list", "update_todo_status"]) {
        expect(number(status, new RegExp(`(?:total;|;) ${tool} (\\d+)`)), `${tool} before call ${k}`).toBe(expected.perTool[tool] ?? 0);
      }
      for (const company of ["Xfinity", "Comcast"]) {
        const count = expected.perCompany[company] ?? 0;
        expect(number(status, new RegExp(`company="${company}": (\\d+)`))).toBe(count);
        if (count >= 3) expect(status).toContain(`limit: Maximum calls to "${company}" (phone_call company) reached (${count}/3); do not call again`);
        else if (count > 0) expect(status).toContain(`limit: calls to "${company}" (phone_call company) ${count}/3 used`);
      }
      expect(number(status, /consecutive_failures: .*lookup_account (\d+)/)).toBe(expected.lookupFailuresInRow);
      expect(number(status, /repeated_failure: lookup_account \{"account_id":"xfinity-7"\} failed (\d+) times/)).toBe(expected.badLookups >= 2 ? expected.badLookups : 0);
      for (const [id, itemStatus] of Object.entries(expected.todo)) expect(status).toMatch(new RegExp(`- \\[${id}\\] ${itemStatus} `));
      expect(status).toContain(`goal: "${supportDeskRequest}"`);
      expect(status).toContain("working_directory: /work/desk");
    }
  });

  it("stores one status per call in append mode and none in replace mode, and stamps results and the request", async () => {
    const append = await runFiftyCalls("append");
    const last = append.provider.requests.at(-1)!;
    expect(last.messages.filter(isStatusMessage)).toHaveLength(50);
    const replace = await runFiftyCalls("replace");
    const lastReplace = replace.provider.requests.at(-1)!;
    expect(lastReplace.messages.filter(isStatusMessage)).toHaveLength(0);
    expect(lastReplace.messages[0]).toMatchObject({ role: "user", content: expect.stringMatching(/^\[2025-09-14 10:30:0\d\] Help me get the refund/) });
    const firstResult = lastReplace.messages.find((message) => message.role === "tool")!;
    expect(firstResult.content).toMatch(/^\[2025-09-14 10:30:\d\d\] \[Tool call #1 for 'rewrite_todo_list'\] TODO list replaced/);
  });
});
