import { describe, expect, it } from "vitest";
import { createAgent } from "../../loop/create-agent.js";
import { createTestClock, failingTool, weatherTool } from "../../loop/test-support.js";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import type { ScriptedTurn } from "../../providers/scripted/scripted-turn.js";
import { createStatusBar } from "./create-status-bar.js";
import type { StatusBarOptions } from "./status-bar-settings.js";
import { isStatusMessage } from "./status-message.js";

const environment = { workingDirectory: "/ws", os: "linux", runtime: "node v20" };
const weatherTurns = (calls: number): ScriptedTurn[] => [
  ...Array.from({ length: calls }, (_, index): ScriptedTurn => ({ toolCalls: [{ name: "get_weather", arguments: { city: `C${index}` } }] })),
  "Done.",
];

function agentWith(options: StatusBarOptions, turns: ScriptedTurn[], messages = [] as Parameters<typeof createAgent>[0]["messages"]) {
  const statusBar = createStatusBar({ environment, ...options });
  const provider = createScriptedProvider({ turns });
  const agent = createAgent({
    provider,
    system: "s",
    tools: [weatherTool, failingTool],
    context: [statusBar],
    prefixGuard: { strict: true },
    ...(messages ? { messages } : {}),
    runtime: { clock: createTestClock("2025-09-14T10:30:00.000Z") },
  });
  return { statusBar, provider, agent };
}

describe("createStatusBar", () => {
  it("auto appends a small status when calls append a lot, and says why", async () => {
    const decisions: string[] = [];
    const run = agentWith({ mode: "auto", cacheKeepsReplies: true, cachedInputPriceRatio: 0.1, appendedTokensPerCall: 2000, onDecision: (decision) => decisions.push(decision.reason) }, weatherTurns(3));
    await run.agent.run("weather").result();
    expect(decisions[0]).toMatch(/so append$/);
    const first = run.provider.requests[0]!;
    expect(first.tail === undefined && isStatusMessage(first.messages.at(-1)!)).toBe(true);
    // Once replies were seen, R is measured from them: these are a few tokens, so the run switches to replace.
    expect(decisions).toHaveLength(2);
    expect(run.statusBar.lastDecision).toMatchObject({ mode: "replace", inputs: { expectedUpdates: 10, cachedInputPriceRatio: 0.1 } });
  });

  it("auto replaces when the cache discount is small and little is appended per call", async () => {
    const run = agentWith({ mode: "auto", cachedInputPriceRatio: 0.9, appendedTokensPerCall: 10 }, weatherTurns(3));
    await run.agent.run("weather").result();
    expect(run.statusBar.lastDecision?.mode).toBe("replace");
    expect(run.provider.requests.every((request) => request.tail?.content.startsWith("<agent_status>") && !request.messages.some(isStatusMessage))).toBe(true);
  });

  it("replaces on a prompt-only cache, where a replaced status invalidates nothing after it", () => {
    const run = agentWith({ mode: "auto", cachedInputPriceRatio: 0.1, appendedTokensPerCall: 2000 }, weatherTurns(1));
    return run.agent.run("weather?").result().then(() => {
      expect(run.statusBar.lastDecision).toMatchObject({ mode: "replace", inputs: { appendedTokensPerUpdate: 0 } });
    });
  });

  it("reads its choice back from the trajectory after a restart", async () => {
    const settings = { mode: "auto" as const, cacheKeepsReplies: true, cachedInputPriceRatio: 0.1, appendedTokensPerCall: 2000 };
    const first = agentWith(settings, [{ text: "word ".repeat(300), toolCalls: [{ name: "get_weather", arguments: { city: "A" } }] }, "x"], []);
    // Stop after the first call, as if the process died mid-run.
    const handle = first.agent.run("weather");
    for await (const event of handle) if (event.type === "tool_result") break;
    const trajectory = [...first.agent.messages];
    const decisions: unknown[] = [];
    const restarted = agentWith({ ...settings, onDecision: (decision) => decisions.push(decision) }, ["ok"], trajectory);
    // The run chose append at its first call; the restarted status bar sees that and goes on appending.
    const edits = (await restarted.statusBar.prepareContext!({ messages: trajectory, prefix: restarted.agent.prefix, iteration: 1, now: new Date(), overflow: false, signal: new AbortController().signal })) ?? [];
    expect(edits).toHaveLength(1);
    expect(restarted.statusBar.tail!({ trajectory: [...trajectory, ...(edits[0]!.type === "append" ? edits[0]!.messages : [])], iteration: 1, now: new Date() })).toBeUndefined();
    expect(decisions).toEqual([]);
  });

  it("switches a long run from append to replace once, when N estimated from the run outgrows the prior", async () => {
    // Long replies kept as generated make R large; α = 0.5 and a prior of 2 calls make the stored
    // statuses' re-reads (αS·max(2, 2k)/2) overtake (1−α)R after a few calls.
    const reply = "word ".repeat(300);
    const turns: ScriptedTurn[] = [...Array.from({ length: 8 }, (_, index): ScriptedTurn => ({ text: reply, toolCalls: [{ name: "get_weather", arguments: { city: `C${index}` } }] })), "Done."];
    const decisions: Array<{ mode: string; inputs: { expectedUpdates: number } }> = [];
    const run = agentWith({ mode: "auto", cacheKeepsReplies: true, cachedInputPriceRatio: 0.5, expectedCallsPerRun: 2, onDecision: (decision) => decisions.push(decision) }, turns);
    await run.agent.run("weather").result();
    const modes = run.provider.requests.map((request) => (request.tail === undefined ? "append" : "replace"));
    const switchAt = modes.indexOf("replace");
    expect(switchAt).toBeGreaterThan(0);
    expect(modes.slice(0, switchAt).every((mode) => mode === "append") && modes.slice(switchAt).every((mode) => mode === "replace")).toBe(true);
    expect(decisions.map((decision) => decision.mode)).toEqual(["append", "replace"]);
    expect(decisions[1]!.inputs.expectedUpdates).toBe(2 * switchAt);
  });

  it("shows the cache lifetime in force in the tail only, so stored statuses and the prefix never carry it", async () => {
    const replaced = agentWith({ mode: "replace", cacheLifetimeMs: 3_600_000 }, weatherTurns(2));
    await replaced.agent.run("weather").result();
    expect(replaced.provider.requests.every((request) => request.tail!.content.includes("\nprompt_cache: 1h lifetime\n"))).toBe(true);
    expect(replaced.agent.messages.some((message) => JSON.stringify(message).includes("prompt_cache"))).toBe(false);

    const appended = agentWith({ mode: "append", cacheLifetimeMs: 300_000 }, weatherTurns(2));
    await appended.agent.run("weather").result();
    const stored = appended.agent.messages.filter(isStatusMessage);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.some((message) => JSON.stringify(message).includes("prompt_cache"))).toBe(false);
    expect(() => createStatusBar({ cacheLifetimeMs: 0 })).toThrow(/cacheLifetimeMs/);
  });

  it("sends nothing when the mode is off or every section is off, but still stamps results", async () => {
    for (const options of [{ mode: "off" as const }, { counters: false, todo: false, detailedErrors: false, systemState: false }]) {
      const run = agentWith(options, weatherTurns(1));
      await run.agent.run("weather").result();
      expect(run.provider.requests.every((request) => request.tail === undefined && !request.messages.some(isStatusMessage))).toBe(true);
      expect(run.agent.messages.find((message) => message.role === "tool")!.content).toMatch(/^\[2025-09-14 10:30:\d\d\] /);
    }
  });

  it("leaves out each switched-off section", async () => {
    const run = agentWith({ mode: "replace", todo: false, systemState: false, timestamps: false }, weatherTurns(1));
    await run.agent.run("weather").result();
    const status = run.provider.requests.at(-1)!.tail!.content;
    expect(status).toContain("tool_calls: 1 total; get_weather 1");
    expect(status).not.toMatch(/goal:|todo:|time:|working_directory:/);
    expect(run.agent.messages[0]!.content).toBe("weather");
    expect(run.agent.messages.find((message) => message.role === "tool")!.content).toMatch(/^\[Tool call #1 for 'get_weather'\] \{/);
  });

  it("stamps the person's next message with the time since the last reply", async () => {
    const run = agentWith({ mode: "replace" }, ["First.", "Second."]);
    await run.agent.run("hello").result();
    await run.agent.run("again").result();
    expect(run.agent.messages[2]!.content).toMatch(/^\[2025-09-14 10:30:\d\d\] \[\d+ s since your last reply\] again$/);
    expect(run.provider.requests[1]!.tail!.content).toContain('goal: "again"');
  });

  it("adds no second status when a call is retried after a context overflow", async () => {
    const run = agentWith({ mode: "append" }, ["x"]);
    const state = { prefix: run.agent.prefix, iteration: 0, now: new Date(), overflow: true, signal: new AbortController().signal };
    const messages = [{ role: "user" as const, content: "q", meta: { id: "u", origin: "user" as const, createdAt: "" } }];
    const [edit] = (await run.statusBar.prepareContext!({ ...state, messages }))!;
    const withStatus = [...messages, ...(edit as { messages: typeof messages }).messages];
    expect(await run.statusBar.prepareContext!({ ...state, messages: withStatus })).toEqual([]);
  });
});
