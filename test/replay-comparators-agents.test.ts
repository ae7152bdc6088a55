import { describe, expect, it } from "vitest";
import { createCodexPolicy, keptUserMessages, summaryPrefix, truncateToolOutput } from "../src/bench/replay/comparators/codex-policy.js";
import { createDeepagentsPolicy, evictLargeResult } from "../src/bench/replay/comparators/deepagents-policy.js";
import { createGeminiCliPolicy, geminiBudgets, maskToolOutput } from "../src/bench/replay/comparators/gemini-cli-policy.js";
import { createPiPolicy, piBudgets, truncateTail } from "../src/bench/replay/comparators/pi-policy.js";
import { createSummaryRecorder } from "../src/bench/replay/summary-calls.js";
import { createPromptMeter } from "../src/bench/replay/prompt-meter.js";
import { applyEdits } from "../src/context/compose-context-policies.js";
import type { ContextEdit, ContextState } from "../src/context/context-policy.js";
import { createDeterministicSummarizer } from "../src/context/compression/deterministic-summarizer.js";
import type { Message, Usage } from "../src/types/index.js";
import { assistant, characterCounter, roles, tool, user } from "./replay-support.js";

/** task, then one tool turn per size: assistant call + tool result of `size` characters (= tokens here). */
function conversation(sizes: number[]): Message[] {
  const messages: Message[] = [user("task", "the task")];
  sizes.forEach((size, index) => {
    messages.push(assistant(`a${index}`, `step ${index}`, { id: `c${index}`, name: "bash", args: { command: `cmd_${index}` } }));
    messages.push(tool(`t${index}`, `c${index}`, `${index}`.padEnd(size, "o")));
  });
  return messages;
}

const countMessage = (message: Message) => (message.role === "tool" || message.role === "user" ? message.content.length : 10);
const countTokens = (messages: readonly Message[]) => messages.reduce((sum, message) => sum + countMessage(message), 0);
const usage = (inputTokens: number): Usage => ({ inputTokens, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 });

function state(messages: readonly Message[], extra: Partial<ContextState> = {}): ContextState {
  return { messages, prefix: { system: { staticText: "" }, tools: [] }, iteration: 1, now: new Date(0), overflow: false, signal: new AbortController().signal, ...extra };
}

async function run(policy: { prepareContext?: (state: ContextState) => unknown }, messages: readonly Message[], extra: Partial<ContextState> = {}) {
  const edits = ((await policy.prepareContext?.(state(messages, extra))) ?? []) as ContextEdit[];
  return { edits, messages: applyEdits(messages, edits) };
}

const summarizer = createDeterministicSummarizer();

describe("codex", () => {
  const options = { contextWindow: 10_000, counter: characterCounter, summarizer };

  it("auto-compacts once the last call reached 90% of the window, keeping only user messages and the summary", async () => {
    const messages = conversation([3_000, 3_000]);
    expect((await run(createCodexPolicy(options), messages, { lastUsage: usage(8_999) })).edits).toEqual([]);
    const { edits, messages: compacted } = await run(createCodexPolicy(options), messages, { lastUsage: usage(9_000) });
    expect(edits).toMatchObject([{ type: "replace", start: 0, end: messages.length }]);
    expect(roles(compacted)).toEqual(["user", "user"]);
    expect(compacted[0]).toBe(messages[0]); // the task, verbatim
    expect((compacted[1] as { content: string }).content.startsWith(summaryPrefix)).toBe(true);
  });

  it("asks in-band: the summary request is the conversation as sent plus the instruction", async () => {
    const meter = createPromptMeter(characterCounter);
    const pricing = { provider: "test", cacheRule: "local-prefix-reuse", input: 2, output: 8, cacheRead: 0.5 };
    const recorder = createSummaryRecorder(summarizer, meter, pricing);
    const messages = conversation([3_000, 3_000]);
    const prefix = { system: { staticText: "system" }, tools: [] };
    await createCodexPolicy({ ...options, summarizer: recorder.summarizer }).prepareContext!({ ...state(messages), prefix, lastUsage: usage(9_500) });
    const previous = { system: prefix.system, tools: prefix.tools, messages, cacheBreakpoints: [], settings: {} };
    const [call] = recorder.take(previous, 3);
    expect(call).toMatchObject({ mode: "in-band", purpose: "compaction" });
    // Everything the previous request sent is served from the cache; only the instruction is new.
    expect(call!.reusablePrefixTokens).toBe(meter.requestTokens(previous));
    expect(call!.uncachedTokens).toBeLessThan(1_000);
  });

  it("keeps user messages newest first within 20k tokens and truncates tool output to 10k tokens when recorded", () => {
    const users = [user("u1", "a".repeat(15_000)), user("u2", "b".repeat(15_000))];
    const kept = keptUserMessages(users, new Set(), characterCounter);
    expect(kept.map((message) => message.meta.id)).toEqual(["u1:truncated", "u2"]);
    expect(characterCounter.count((kept[0] as { content: string }).content)).toBeLessThan(5_100);
    const long = truncateToolOutput(tool("t", "c", `HEAD${"x".repeat(20_000)}TAIL`), characterCounter);
    expect(long.content).toMatch(/^HEAD.*tokens truncated.*TAIL$/s);
    expect(long.content.length).toBeLessThan(10_100);
  });
});

describe("pi", () => {
  it("compacts past window − 16,384 and keeps the newest 20k tokens, never starting at a tool result", async () => {
    const options = { contextWindow: 200_000, countMessage, summarizer };
    expect(piBudgets(200_000)).toEqual({ reserve: 16_384, keep: 20_000 });
    const messages = conversation([30_000, 30_000, 12_000, 12_000]);
    expect((await run(createPiPolicy(options), messages, { lastUsage: usage(183_616) })).edits).toEqual([]);
    const { edits, messages: compacted } = await run(createPiPolicy(options), messages, { lastUsage: usage(183_617) });
    // Newest first: 12k (t3) + 10 (a3) + 12k (t2) reaches 20k at t2, a tool result: the cut moves on to a3.
    expect(edits).toMatchObject([{ type: "replace", start: 0, end: 7 }]);
    expect(roles(compacted)).toEqual(["user", "assistant", "tool"]);
    expect((compacted[0] as { content: string }).content).toContain("<summary>");
  });

  it("scales its budgets where they would not fit, and keeps the tail of long output", () => {
    expect(piBudgets(32_000)).toEqual({ reserve: 4_000, keep: 4_883 });
    const lines = Array.from({ length: 2_500 }, (_, index) => `line ${index}`).join("\n");
    const cut = truncateTail(tool("t", "c", lines));
    expect(cut.content).toContain("line 2499");
    expect(cut.content).not.toContain("line 499\n");
    expect(cut.content).toContain("Showing lines 501-2500 of 2500");
  });
});

describe("deepagents", () => {
  const options = { contextWindow: 10_000, countMessage, summarizer };

  it("summarises at 85% of the window and keeps the newest 10%", async () => {
    const messages = conversation([2_000, 2_000, 2_000, 600, 500]);
    expect(countTokens(messages)).toBe(7_158);
    expect((await run(createDeepagentsPolicy(options), messages)).edits).toEqual([]);
    const more = conversation([2_000, 2_000, 2_000, 1_500, 500, 500]); // 8,568 ≥ 8,500
    const { edits, messages: compacted } = await run(createDeepagentsPolicy(options), more);
    // 10% = 1,000 tokens: t5 (500) + a5 + t4 (500) reaches it at t4, a result: the tail starts at a5.
    expect(edits).toMatchObject([{ type: "replace", start: 0, end: more.length - 2 }]);
    expect(roles(compacted)).toEqual(["user", "assistant", "tool"]);
    expect((compacted[0] as { content: string }).content).toContain("/conversation_history/");
  });

  it("offloads a result over 20k tokens (80,000 characters) to a file with a head and tail sample", () => {
    const small = tool("t", "c", "y".repeat(80_000));
    expect(evictLargeResult(small)).toBe(small);
    const big = evictLargeResult(tool("t", "c", Array.from({ length: 20_000 }, (_, index) => `row ${index}`).join("\n")));
    expect(big.content).toContain("/large_tool_results/c");
    expect(big.content).toContain("row 0\n");
    expect(big.content).toContain("row 19999");
    expect(big.content).not.toContain("row 100\n");
  });
});

describe("gemini-cli", () => {
  const options = { contextWindow: 100_000, countTokens, countMessage, counter: characterCounter, summarizer };

  it("masks tool output over 8,000 tokens at write time, without a preview", () => {
    const masked = maskToolOutput(tool("t", "c", "z".repeat(8_001)), characterCounter);
    expect(masked.content).toMatch(/^<tool_output_masked>\n.*tool-outputs\/.*\n<\/tool_output_masked>$/s);
    const kept = tool("t", "c", "z".repeat(8_000));
    expect(maskToolOutput(kept, characterCounter)).toBe(kept);
  });

  it("over the retained budget distils aged-out nodes over 3,000 tokens; over max it writes a state snapshot", async () => {
    expect(geminiBudgets(100_000)).toEqual({ max: 90_000, retained: 39_000 });
    const under = conversation([5_000, 5_000, 5_000]);
    expect((await run(createGeminiCliPolicy(options), under)).edits).toEqual([]);
    // 45k: over retained (39k), under max. The oldest result ages out and is distilled; the rest stay.
    const over = conversation([5_000, 2_000, 6_000, 8_000, 8_000, 8_000, 8_000]);
    const { messages: normalized } = await run(createGeminiCliPolicy(options), over);
    expect(roles(normalized)).toEqual(roles(over));
    expect(normalized[2]!.meta.id).toBe("t0:distilled");
    expect(normalized[4]).toBe(over[4]); // 2,000 tokens: under the distillation threshold
    expect(normalized.at(-1)).toBe(over.at(-1));
    // 100k of nodes under the distillation threshold: over max — everything before the newest 39k becomes one snapshot.
    const full = conversation(Array.from({ length: 40 }, () => 2_500));
    const { messages: snapshot } = await run(createGeminiCliPolicy(options), full);
    expect((snapshot[0] as { content: string }).content).toContain("<state_snapshot>");
    expect(countTokens(snapshot)).toBeLessThan(48_000);
    expect(snapshot.at(-1)).toBe(full.at(-1));
  });
});
