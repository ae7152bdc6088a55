import { describe, expect, it } from "vitest";
import { toProcessedToolResult } from "../src/context/context-policy.js";
import { createClaudeCodePolicy } from "../src/bench/replay/comparators/claude-code-policy.js";
import { createOpencodePolicy, pruneIndices, tailStart, truncateOutput, usableTokens } from "../src/bench/replay/comparators/opencode-policy.js";
import { readPathOf } from "../src/bench/replay/comparators/recent-file-reads.js";
import { createDeterministicSummarizer } from "../src/context/compression/deterministic-summarizer.js";
import { createSlidingWindowPolicy, slidingWindowStart } from "../src/bench/replay/comparators/sliding-window-policy.js";
import { createFloorPolicy, newestTurnStart } from "../src/bench/replay/comparators/floor-policy.js";
import { applyEdits } from "../src/context/compose-context-policies.js";
import type { ContextEdit, ContextState } from "../src/context/context-policy.js";
import type { Message } from "../src/types/index.js";
import { assistant, characterCounter, roles, tool, user } from "./replay-support.js";

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

describe("floor", () => {
  it("keeps the task and the newest turn (its call and results), drops everything between, summarises nothing", async () => {
    const messages = conversation([1, 1, 1]); // user, (assistant, tool) × 3
    expect(newestTurnStart(messages)).toBe(5);
    const { edits, messages: kept } = await prepare(createFloorPolicy(), messages);
    expect(roles(kept)).toEqual(["user", "assistant", "tool"]);
    expect(kept[0]).toBe(messages[0]);
    expect(kept[1]).toBe(messages[5]);
    expect(edits).toMatchObject([{ type: "replace", start: 1, end: 5, messages: [] }]);
  });

  it("keeps a user's reply with the assistant turn it answers (dialogues), and leaves a short run alone", async () => {
    const dialogue: Message[] = [user("u0", "book a flight"), assistant("a0", "which date?"), user("u1", "May 3"), assistant("a1", "done"), user("u2", "thanks")];
    expect(roles((await prepare(createFloorPolicy(), dialogue)).messages)).toEqual(["user", "assistant", "user"]);
    expect((await prepare(createFloorPolicy(), conversation([1]))).edits).toEqual([]);
    expect((await prepare(createFloorPolicy(), [user("task", "x")])).edits).toEqual([]);
  });
});

describe("claude-code", () => {
  const countTokens = (messages: readonly Message[]) => messages.length * 100;
  const options = { contextWindow: 1000, countTokens, counter: characterCounter, summarizer: createDeterministicSummarizer() };

  it("fires only once the request passes 83.5% of the window, or after an overflow", async () => {
    const at = (tokens: number) => createClaudeCodePolicy({ ...options, countTokens: () => tokens });
    expect((await prepare(at(835), conversation([1, 1, 1, 1]))).edits).toEqual([]);
    expect((await prepare(at(836), conversation([1, 1, 1, 1]))).edits).toHaveLength(1);
    expect(await at(100).prepareContext?.({ ...state(conversation([1])), overflow: true })).toHaveLength(1);
  });

  it("keeps no message verbatim: a summary by the shared summariser, then the newest reads of up to 5 files", async () => {
    const messages: Message[] = [user("task", "Fix parse_config in app/config.py")];
    for (const [index, file] of ["a.py", "b.py", "c.py", "d.py", "e.py", "f.py", "a.py"].entries()) {
      messages.push(assistant(`a${index}`, `reading ${file}`, { id: `c${index}`, name: "bash", args: { command: `cat src/${file}` } }));
      messages.push(tool(`t${index}`, `c${index}`, `contents of ${file} #${index}`));
    }
    const { edits, messages: compacted } = await prepare(createClaudeCodePolicy(options), messages);
    expect(edits).toMatchObject([{ type: "replace", start: 0, end: messages.length }]);
    const texts = compacted.map((message) => (message.role === "user" ? message.content : ""));
    expect(texts[0]).toContain("## Goal");
    expect(texts[0]).toContain("parse_config");
    // Newest first, each file once: a.py (its newest read), f, e, d, c — b.py is the sixth.
    expect(texts.slice(1).map((text) => /"file_path":"([^"]+)"/.exec(text)?.[1])).toEqual(["src/a.py", "src/f.py", "src/e.py", "src/d.py", "src/c.py"]);
    expect(texts[1]).toContain("contents of a.py #6");
  });

  it("spills a result over 50k characters to a 2 KB preview at write time", async () => {
    const policy = createClaudeCodePolicy(options);
    const big = tool("t", "c", "x".repeat(60_000));
    const written = toProcessedToolResult(await policy.processToolResult!(big, { call: { type: "tool_call", id: "c", name: "bash", argumentsText: "{}", arguments: {} }, durationMs: 0, callNumber: 1, totalCallNumber: 1, now: new Date(0) })).message;
    expect(written.content.length).toBeLessThan(2_300);
    expect(written.content).toContain("60000 characters");
  });

  it("finds the file a shell read command prints", () => {
    const call = (command: string) => ({ type: "tool_call" as const, id: "c", name: "bash", argumentsText: "", arguments: { command } });
    expect(readPathOf(call("cat astropy/modeling/separable.py"))).toBe("astropy/modeling/separable.py");
    expect(readPathOf(call("nl -ba django/db/models/base.py | sed -n '1680,1720p'"))).toBe("django/db/models/base.py");
    expect(readPathOf(call("sed -n '10,20p' ./lib/util.py"))).toBe("./lib/util.py");
    expect(readPathOf(call("grep -rn foo ."))).toBeUndefined();
  });
});

describe("opencode", () => {
  const countMessage = (message: Message) => (message.role === "tool" ? message.content.length : 1);
  const options = { contextWindow: 32_000, countMessage, summarizer: createDeterministicSummarizer() };

  it("truncates output over 2,000 lines or 50 KB at write time, keeping the head", () => {
    const long = truncateOutput(tool("t", "c", Array.from({ length: 2_500 }, (_, index) => `line ${index}`).join("\n")));
    expect(long.content).toContain("line 1999\n\n...500 lines truncated...");
    expect(long.content).not.toContain("line 2000\n");
    const wide = truncateOutput(tool("t", "c", "y".repeat(60 * 1024)));
    expect(wide.content).toContain("...1 lines truncated...");
    const small = tool("t", "c", "short");
    expect(truncateOutput(small)).toBe(small);
  });

  it("prunes only outputs older than the newest 40k tokens, and only when over 20k can go", () => {
    // Newest first: 20k, then 30k crosses the protected 40k — it and everything older goes (60k).
    expect(pruneIndices(conversation([15_000, 15_000, 30_000, 20_000]), countMessage, new Set())).toEqual([2, 4, 6]);
    // 30k + 10k are protected; the 10k older than them is under the 20k minimum.
    expect(pruneIndices(conversation([5_000, 5_000, 10_000, 30_000]), countMessage, new Set())).toEqual([]);
  });

  it("compacts when the previous call reached the usable window, keeping a recent tail", async () => {
    expect(usableTokens(32_000, 4096)).toBe(23_808);
    const policy = createOpencodePolicy(options);
    const messages = conversation([3_000, 3_000, 3_000, 3_000]);
    const quiet = await policy.prepareContext!({ ...state(messages), lastUsage: { inputTokens: 20_000, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 100, reasoningTokens: 0 } });
    expect(quiet).toBeUndefined();
    const edits = (await policy.prepareContext!({ ...state(messages), lastUsage: { inputTokens: 23_800, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 100, reasoningTokens: 0 } })) as ContextEdit[];
    // Tail budget min(15k, max(2k, 23,808 / 4)) = 5,952 tokens: the newest call and its 3,000-token result.
    expect(edits).toMatchObject([{ type: "replace", start: 0, end: tailStart(messages, 5_952, countMessage) }]);
    expect(roles(applyEdits(messages, edits))).toEqual(["user", "assistant", "tool"]);
  });
});
