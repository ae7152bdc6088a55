import { describe, expect, it } from "vitest";
import { compactionEnd, createCompactAtThresholdPolicy } from "../src/bench/replay/comparators/compact-at-threshold-policy.js";
import { summaryHeader } from "../src/bench/replay/comparators/deterministic-summary.js";
import { clearedToolOutput, createPruneToolOutputsPolicy, prunableOutputs } from "../src/bench/replay/comparators/prune-tool-outputs-policy.js";
import { createSlidingWindowPolicy, slidingWindowStart } from "../src/bench/replay/comparators/sliding-window-policy.js";
import { applyEdits } from "../src/context/compose-context-policies.js";
import type { ContextState } from "../src/context/context-policy.js";
import type { Message } from "../src/types/index.js";
import { assistant, roles, tool, user } from "./replay-support.js";

/** task, then `turns` tool turns: assistant call + tool result with `sizes[i]` characters of output. */
function conversation(sizes: number[]): Message[] {
  const messages: Message[] = [user("task", "the task")];
  sizes.forEach((size, index) => {
    messages.push(assistant(`a${index}`, `step ${index}`, { id: `c${index}`, name: "bash", args: { command: `cmd_${index}` } }));
    messages.push(tool(`t${index}`, `c${index}`, "o".repeat(size)));
  });
  return messages;
}

function state(messages: readonly Message[], iteration = 1): ContextState {
  return { messages, prefix: { system: { staticText: "" }, tools: [] }, iteration, now: new Date(0), overflow: false, signal: new AbortController().signal };
}

async function prepare(policy: { prepareContext?: (state: ContextState) => unknown }, messages: readonly Message[]) {
  const edits = ((await policy.prepareContext?.(state(messages))) ?? []) as Parameters<typeof applyEdits>[1];
  return { edits, messages: applyEdits(messages, edits) };
}

describe("sliding-window", () => {
  it("keeps the newest N messages and never starts with a tool result whose call was dropped", async () => {
    const messages = conversation([1, 1, 1, 1]); // 9 messages: user, (assistant, tool) × 4
    expect(slidingWindowStart(messages, 4)).toBe(5);
    expect(slidingWindowStart(messages, 3)).toBe(7); // index 6 is a tool result: skip it
    const { edits, messages: kept } = await prepare(createSlidingWindowPolicy({ maxMessages: 3 }), messages);
    expect(roles(kept)).toEqual(["assistant", "tool"]);
    expect(edits).toMatchObject([{ type: "replace", start: 0, end: 7, messages: [] }]);
    expect((await prepare(createSlidingWindowPolicy({ maxMessages: 20 }), messages)).edits).toEqual([]);
  });
});

describe("compact-at-83", () => {
  const countTokens = (messages: readonly Message[]) => messages.length * 100;
  const policy = createCompactAtThresholdPolicy({ contextWindow: 1000, countTokens });

  it("fires only once the request passes 83.5% of the window", async () => {
    const at = (tokens: number) => createCompactAtThresholdPolicy({ contextWindow: 1000, countTokens: () => tokens });
    expect((await prepare(at(835), conversation([1, 1, 1, 1]))).edits).toEqual([]);
    expect((await prepare(at(836), conversation([1, 1, 1, 1]))).edits).toHaveLength(1);
    expect((await prepare(policy, conversation([1, 1, 1, 1]).slice(0, 8))).edits).toEqual([]); // 800 tokens
  });

  it("replaces everything but the newest messages with a summary, pairs intact", async () => {
    const messages = conversation([1, 1, 1, 1]); // 900 tokens
    const { edits, messages: compacted } = await prepare(policy, messages);
    expect(edits).toHaveLength(1);
    expect(edits[0]).toMatchObject({ type: "replace", start: 0, end: 5 });
    expect(roles(compacted)).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
    const summary = compacted[0]!.role === "user" ? compacted[0]!.content : "";
    expect(summary.startsWith(summaryHeader)).toBe(true);
    expect(summary).toContain("Task: the task");
    expect(summary).toContain("cmd_0");
  });

  it("keeps a tool result with its call when choosing what to keep", () => {
    const messages = conversation([1, 1, 1]); // user a t a t a t
    expect(compactionEnd(messages, 4)).toBe(3);
    expect(compactionEnd(messages, 3)).toBe(3); // index 4 is a tool result: keep its call too
  });
});

describe("prune", () => {
  const countMessage = (message: Message) => (message.role === "tool" ? message.content.length : 1);

  it("protects the newest tool output and clears older results only when enough can be freed", () => {
    // Window 100 → protect 20 tokens of output, clear only when ≥ 10 can be freed.
    // Newest first: 10 + 15 crosses the protected 20, so the 15 and everything older is cleared.
    expect(prunableOutputs(conversation([8, 8, 15, 10]), countMessage, 20, 10)).toEqual([2, 4, 6]);
    // 18 is protected; 5 + 3 = 8 freeable is under the minimum of 10: nothing happens.
    expect(prunableOutputs(conversation([3, 5, 18]), countMessage, 20, 10)).toEqual([]);
  });

  it("clears in one batched edit and stops at an output cleared before", async () => {
    const policy = createPruneToolOutputsPolicy({ contextWindow: 100, countMessage });
    const { edits, messages } = await prepare(policy, conversation([12, 12, 15, 10]));
    expect(edits).toHaveLength(1);
    expect(edits[0]).toMatchObject({ type: "replace", start: 2, end: 7 });
    const cleared = clearedToolOutput.length;
    expect(messages.map((message) => (message.role === "tool" ? message.content.length : 0))).toEqual([0, 0, cleared, 0, cleared, 0, cleared, 0, 10]);
    // Next time the walk stops at the output cleared before: only the 10 can go.
    const later = [...messages, ...conversation([20]).slice(1)];
    expect((await prepare(policy, later)).edits).toMatchObject([{ type: "replace", start: 8, end: 9 }]);
  });
});
