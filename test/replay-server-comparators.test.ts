import { describe, expect, it } from "vitest";
import { clearedToolResult, createAnthropicClearToolUsesPolicy } from "../src/bench/replay/comparators/anthropic-clear-tool-uses-policy.js";
import { createServerCompactionPolicy } from "../src/bench/replay/comparators/server-compaction-policy.js";
import { createDeterministicSummarizer } from "../src/context/compression/deterministic-summarizer.js";
import { applyEdits } from "../src/context/compose-context-policies.js";
import type { ContextState } from "../src/context/context-policy.js";
import type { Message, ToolMessage } from "../src/types/index.js";
import { assistant, roles, tool, user } from "./replay-support.js";

/** task, then a tool turn per entry: assistant call + result from tool `name`. */
function conversation(names: string[]): Message[] {
  const messages: Message[] = [user("task", "the task")];
  names.forEach((name, index) => {
    messages.push(assistant(`a${index}`, `step ${index}`, { id: `c${index}`, name, args: { index } }));
    messages.push({ ...tool(`t${index}`, `c${index}`, `output ${index} `.repeat(50)), toolName: name } as ToolMessage);
  });
  messages.push(user("follow-up", "and now the docs"));
  return messages;
}

const state = (messages: readonly Message[], overflow = false): ContextState => ({ messages, prefix: { system: { staticText: "" }, tools: [] }, iteration: 3, now: new Date(0), overflow, signal: new AbortController().signal });

async function prepare(policy: { prepareContext?: (state: ContextState) => unknown }, messages: readonly Message[], overflow = false) {
  const edits = ((await policy.prepareContext?.(state(messages, overflow))) ?? []) as Parameters<typeof applyEdits>[1];
  return { edits, messages: applyEdits(messages, edits) };
}

describe("anthropic-clear-tool-uses (clear_tool_uses_20250919's documented rules)", () => {
  const base = { contextWindow: 1000, countMessage: (message: Message) => (message.role === "tool" ? 100 : 10) };

  it("clears nothing under the trigger, then all tool results but the newest `keep`, never an excluded tool's", async () => {
    const messages = conversation(["bash", "web_search", "bash", "bash", "bash", "bash"]);
    const under = createAnthropicClearToolUsesPolicy({ ...base, countRequest: () => 800 });
    expect((await prepare(under, messages)).edits).toEqual([]);
    const over = createAnthropicClearToolUsesPolicy({ ...base, countRequest: () => 801, excludeTools: ["web_search"] });
    const { edits, messages: cleared } = await prepare(over, messages);
    expect(edits).toMatchObject([{ type: "replace", reason: expect.stringContaining("server-side clear_tool_uses_20250919") }]);
    const results = cleared.filter((message): message is ToolMessage => message.role === "tool");
    expect(results.map((message) => message.content === clearedToolResult)).toEqual([true, false, true, false, false, false]);
    // The calls stay, so the model still sees what it asked for.
    expect(roles(cleared)).toEqual(roles(messages));
  });

  it("waits until clearing frees clear_at_least tokens", async () => {
    const messages = conversation(["bash", "bash", "bash", "bash"]);
    const policy = (clearAtLeastTokens: number) => createAnthropicClearToolUsesPolicy({ ...base, countRequest: () => 2000, clearAtLeastTokens });
    expect((await prepare(policy(101), messages)).edits).toEqual([]);
    expect((await prepare(policy(100), messages)).edits).toHaveLength(1);
  });
});

describe("server compaction (compact_20260112, OpenAI compaction)", () => {
  const options = { contextWindow: 1000, summarizer: createDeterministicSummarizer() };

  it("Anthropic keeps only the summary; OpenAI keeps the user's messages verbatim before its compaction item", async () => {
    const messages = conversation(["bash", "bash"]);
    const anthropic = await prepare(createServerCompactionPolicy({ ...options, vendor: "anthropic", countRequest: () => 900 }), messages);
    expect(roles(anthropic.messages)).toEqual(["user"]);
    expect(anthropic.messages[0]!.content).toMatch(/^<compaction>\n/);
    const openai = await prepare(createServerCompactionPolicy({ ...options, vendor: "openai", countRequest: () => 900 }), messages);
    expect(openai.messages.map((message) => message.content.slice(0, 12))).toEqual(["the task", "and now the ", "<compaction>"]);
    expect(openai.edits).toMatchObject([{ reason: "server-side openai-compaction at 900 tokens" }]);
  });

  it("fires past the threshold or after an overflow only", async () => {
    const messages = conversation(["bash"]);
    expect((await prepare(createServerCompactionPolicy({ ...options, vendor: "openai", countRequest: () => 800 }), messages)).edits).toEqual([]);
    expect((await prepare(createServerCompactionPolicy({ ...options, vendor: "openai", countRequest: () => 10 }), messages, true)).edits).toHaveLength(1);
  });
});
