import { describe, expect, it } from "vitest";
import type { ContextPolicy } from "../src/context/context-policy.js";
import { createSlidingWindowPolicy } from "../src/bench/replay/comparators/sliding-window-policy.js";
import { createPromptMeter } from "../src/bench/replay/prompt-meter.js";
import type { RecordedRun } from "../src/bench/replay/recorded-run.js";
import { findReferencePairs } from "../src/bench/replay/reference-pairs.js";
import { replayRun, type ReplayRunOptions } from "../src/bench/replay/replay-run.js";
import { summarizeReplayedRun } from "../src/bench/replay/replay-summary.js";
import { halfOf } from "../src/bench/replay/split-runs.js";
import { toEmittedRequest } from "../src/bench/replay/to-emitted-request.js";
import type { ModelPricing } from "../src/tokens/pricing.js";
import type { Message, ModelRequest } from "../src/types/index.js";
import { assistant, characterCounter, tool, user } from "./replay-support.js";

const pricing: ModelPricing = { provider: "test", cacheRule: "openai-automatic", input: 2, cacheRead: 0.5, output: 8 };

function recordedRun(messages: Message[], system = "SYS!"): RecordedRun {
  const calls = messages.flatMap((message, index) => (message.role === "assistant" ? [{ index }] : []));
  return { id: "run-1", file: "run-1.json", format: "mini-swe-agent", system: { staticText: system }, tools: [], messages, calls };
}

function options(run: RecordedRun, extra: Partial<ReplayRunOptions> = {}): ReplayRunOptions {
  return { contextWindow: 1000, meter: createPromptMeter(characterCounter), pricing, pairs: findReferencePairs(run.system.staticText, run.messages), ...extra };
}

describe("replayRun", () => {
  it("measures prompt, reusable-prefix and uncached tokens of every recorded call", async () => {
    const run = recordedRun([
      user("task", "task"),
      assistant("a1", "ok", { id: "c1", name: "bash", args: { command: "ls" } }),
      tool("t1", "c1", "file_a.py"),
      assistant("a2", "done"),
    ]);
    run.calls[0]!.reportedUsage = { completionTokens: 3 };
    const replayed = await replayRun(run, { name: "none" }, options(run));
    // One token per character, plus the wrappers of the Qwen3 layout: 5 per message, 10 per tool
    // call, 4 per tool result. system 4+5; task 4+5; a1 "ok"+"bash"+'{"command": "ls"}' = 23+5+10;
    // t1 9+5+4; a2 4+5.
    expect(replayed.calls).toEqual([
      { call: 1, promptTokens: 18, reusablePrefixTokens: 0, uncachedTokens: 18, outputTokens: 3, cost: (18 * 2 + 3 * 8) / 1e6, overflow: false, rescued: false, compactions: 0 },
      { call: 2, promptTokens: 74, reusablePrefixTokens: 18, uncachedTokens: 56, outputTokens: 9, cost: (56 * 2 + 18 * 0.5 + 9 * 8) / 1e6, overflow: false, rescued: false, compactions: 0 },
    ]);
  });

  it("passes tool results through processToolResult and applies prepareContext's edits before measuring", async () => {
    const run = recordedRun([
      user("task", "task"),
      assistant("a1", "", { id: "c1", name: "bash", args: { command: "ls" } }),
      tool("t1", "c1", "x".repeat(500)),
      assistant("a2", "", { id: "c2", name: "bash", args: { command: "ls" } }),
      tool("t2", "c2", "y"),
      assistant("a3", "done"),
    ]);
    const seen: number[] = [];
    const policy: ContextPolicy = {
      name: "test",
      processToolResult: (result, info) => ({ ...result, content: `#${info.totalCallNumber} ${result.content.slice(0, 3)}` }),
      prepareContext: (state) => {
        seen.push(state.lastUsage?.inputTokens ?? 0);
        return state.iteration === 2 && !state.overflow ? [{ type: "replace", start: 0, end: 1, messages: [user("summary", "s")], reason: "test" }] : undefined;
      },
    };
    const requests: ModelRequest[] = [];
    const replayed = await replayRun(run, policy, options(run, { contextWindow: 100, onRequest: (_call, request) => requests.push(request) }));
    expect(requests[1]!.messages.map((message) => (message.role === "tool" ? message.content : message.role))).toEqual(["user", "assistant", "#1 xxx"]);
    expect(requests[2]!.messages[0]!.meta.id).toBe("summary");
    // Call 3 overflows: the policy is asked again (overflow: true), declines, and the call fails.
    expect(seen).toEqual([0, replayed.calls[0]!.promptTokens, replayed.calls[1]!.promptTokens, replayed.calls[1]!.promptTokens]);
    expect(replayed.calls.map((call) => call.compactions)).toEqual([0, 0, 1]);
    // The replaced first message breaks the prefix right after system and tools.
    expect(replayed.calls[2]!.reusablePrefixTokens).toBe(9);
    expect(replayed.calls.map((call) => call.promptTokens)).toEqual([18, 69, 115]);
    expect(replayed.calls.map((call) => call.overflow)).toEqual([false, false, true]);
  });

  it("scores reference recall where the model first writes each identifier", async () => {
    const run = recordedRun([
      user("task", "Fix parse_config"),
      assistant("a1", "Reading.", { id: "c1", name: "bash", args: { command: "cat app.txt" } }),
      tool("t1", "c1", "def compute_total(): see helpers/util_math.py line 1234\nclass ConfigLoader"),
      assistant("a2", "I will change compute_total and ConfigLoader.", { id: "c2", name: "bash", args: { command: "true" } }),
      tool("t2", "c2", "nothing"),
      assistant("a3", "Now open helpers/util_math.py at 1234."),
    ]);
    // Pairs: compute_total and ConfigLoader (written by a2); helpers/util_math.py, util_math.py,
    // util_math and 1234 (written by a3). A two-message window still shows t1 at a2's call but
    // not at a3's: 2 of 6 visible.
    const replayed = await replayRun(run, createSlidingWindowPolicy({ maxMessages: 2 }), options(run));
    expect(replayed.references).toBe(6);
    expect(replayed.lostReferences.map((lost) => lost.identifier).sort()).toEqual(["1234", "helpers/util_math.py", "util_math", "util_math.py"]);
    expect(replayed.lostReferences.every((lost) => lost.call === 3)).toBe(true);
    expect(summarizeReplayedRun(replayed).referenceRecall).toBe(2 / 6);
    const everything = await replayRun(run, { name: "none" }, options(run));
    expect(everything.lostReferences).toEqual([]);
  });

  it("scores line recall on the source line, so a list of names alone does not count", async () => {
    const run = recordedRun([
      user("task", "Fix it"),
      assistant("a1", "Looking.", { id: "c1", name: "bash", args: { command: "grep -n total app.py" } }),
      tool("t1", "c1", "header\n  12: def compute_total(items):  \nfooter"),
      assistant("a2", "I will edit compute_total."),
    ]);
    const pairs = findReferencePairs(run.system.staticText, run.messages);
    expect(pairs).toMatchObject([{ identifier: "compute_total", line: "12: def compute_total(items):" }]);
    // A policy that replaces the result by a list of its identifiers keeps the name, not the fact.
    const namesOnly: ContextPolicy = { name: "names-only", processToolResult: (result) => ({ ...result, content: "Identifiers: compute_total" }) };
    const replayed = summarizeReplayedRun(await replayRun(run, namesOnly, options(run)));
    expect([replayed.referenceRecall, replayed.lineRecall]).toEqual([1, 0]);
  });

  it("loses every reference at a call that overflowed, even if the text was in the request", async () => {
    const run = recordedRun([
      user("task", "Fix it"),
      assistant("a1", "Looking.", { id: "c1", name: "bash", args: { command: "cat app.py" } }),
      tool("t1", "c1", `def compute_total(): pass\n${"x".repeat(2_000)}`),
      assistant("a2", "I will edit compute_total."),
    ]);
    const replayed = summarizeReplayedRun(await replayRun(run, { name: "none" }, options(run)));
    expect(replayed.overflowCalls).toEqual([2]);
    expect([replayed.referenceRecall, replayed.lineRecall]).toEqual([0, 0]);
  });

  it("retries an overflowing call once after telling the policy, as the agent loop does", async () => {
    const run = recordedRun([
      user("task", "Fix it"),
      assistant("a1", "Looking.", { id: "c1", name: "bash", args: { command: "cat app.py" } }),
      tool("t1", "c1", "x".repeat(2_000)),
      assistant("a2", "Done."),
    ]);
    const seen: boolean[] = [];
    const dropOnOverflow: ContextPolicy = {
      name: "drop-on-overflow",
      prepareContext: (state) => {
        seen.push(state.overflow);
        return state.overflow ? [{ type: "replace", start: 1, end: state.messages.length, messages: [], reason: "overflow" }] : [];
      },
    };
    const replayed = summarizeReplayedRun(await replayRun(run, dropOnOverflow, options(run)));
    expect(seen).toEqual([false, false, true]);
    expect([replayed.overflows, replayed.rescued]).toEqual([0, 1]);
  });
});

describe("run halves", () => {
  it("are fixed by the run id and split the swe-gemini ids about evenly", () => {
    expect(halfOf("astropy__astropy-12907")).toBe(halfOf("astropy__astropy-12907"));
    const ids = Array.from({ length: 200 }, (_, index) => `repo__repo-${index}`);
    const tune = ids.filter((id) => halfOf(id) === "tune").length;
    expect(tune).toBeGreaterThan(70);
    expect(tune).toBeLessThan(130);
  });
});

describe("emitted requests", () => {
  it("are the run id, call number, prompt tokens and the messages in OpenAI chat format", () => {
    const request: ModelRequest = {
      system: { staticText: "SYS" },
      tools: [],
      messages: [user("task", "do it"), assistant("a1", "ok", { id: "c1", name: "bash", args: { command: "ls" } }), tool("t1", "c1", "out")],
      cacheBreakpoints: [],
      settings: {},
    };
    expect(JSON.parse(JSON.stringify(toEmittedRequest("run-1", 2, 42, request)))).toEqual({
      run: "run-1",
      call: 2,
      promptTokens: 42,
      messages: [
        { role: "system", content: "SYS" },
        { role: "user", content: "do it" },
        { role: "assistant", content: "ok", tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }] },
        { role: "tool", tool_call_id: "c1", content: "out" },
      ],
    });
  });
});
