import { describe, expect, it } from "vitest";
import { clearedToolInput, clearedToolResult, createAnthropicClearToolUsesPolicy } from "../src/bench/replay/comparators/anthropic-clear-tool-uses-policy.js";
import { createAnthropicClearThinkingPolicy } from "../src/bench/replay/comparators/anthropic-clear-thinking-policy.js";
import { createServerCompactionPolicy } from "../src/bench/replay/comparators/server-compaction-policy.js";
import { createDeterministicSummarizer } from "../src/context/compression/deterministic-summarizer.js";
import { applyEdits } from "../src/context/compose-context-policies.js";
import type { ContextState } from "../src/context/context-policy.js";
import type { AssistantMessage, Message, ToolMessage } from "../src/types/index.js";
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
    // The documented default trigger, 100 000 input tokens of a 200k window, scaled: half of 1000.
    const under = createAnthropicClearToolUsesPolicy({ ...base, countRequest: () => 500 });
    expect((await prepare(under, messages)).edits).toEqual([]);
    const over = createAnthropicClearToolUsesPolicy({ ...base, countRequest: () => 501, excludeTools: ["web_search"] });
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

describe("clear_tool_inputs (clear_tool_uses_20250919: \"clear both tool results and tool calls (the tool use parameters)\")", () => {
  const base = { contextWindow: 1000, countMessage: (message: Message) => (message.role === "tool" ? 100 : 10), countRequest: () => 2000 };
  const callsOf = (messages: readonly Message[]) => messages.flatMap((message) => (message.role === "assistant" ? message.content.filter((part) => part.type === "tool_call") : []));

  it("off by default (the API's): the calls keep their parameters", async () => {
    const messages = conversation(["bash", "bash", "bash", "bash", "bash"]);
    const { messages: cleared } = await prepare(createAnthropicClearToolUsesPolicy(base), messages);
    expect(callsOf(cleared).map((call) => call.argumentsText)).toEqual(callsOf(messages).map((call) => call.argumentsText));
  });

  it("on: the cleared results' calls lose their parameters, the kept ones and excluded tools' do not, and the break starts at the first call", async () => {
    const messages = conversation(["bash", "memory", "bash", "bash", "bash", "bash"]);
    const { edits, messages: cleared } = await prepare(createAnthropicClearToolUsesPolicy({ ...base, clearToolInputs: true, excludeTools: ["memory"] }), messages);
    expect(callsOf(cleared).map((call) => call.argumentsText === clearedToolInput)).toEqual([true, false, true, false, false, false]);
    expect(cleared.filter((message): message is ToolMessage => message.role === "tool").map((message) => message.content === clearedToolResult)).toEqual([true, false, true, false, false, false]);
    // messages[1] is the first cleared call: the prompt changes there, before its result at [2].
    expect(edits).toMatchObject([{ type: "replace", start: 1, reason: expect.stringContaining("and their calls' inputs cleared") }]);
    expect(roles(cleared)).toEqual(roles(messages));
  });
});

describe("anthropic-clear-thinking (clear_thinking_20251015's documented rule)", () => {
  /** user, then assistant turns that think (each with a tool call and its result), then a follow-up. */
  function thinkingConversation(turns: number): Message[] {
    const messages: Message[] = [user("task", "the task")];
    for (let index = 0; index < turns; index++) {
      const turn = assistant(`a${index}`, `step ${index}`, { id: `c${index}`, name: "bash", args: { index } });
      messages.push({ ...turn, content: [{ type: "thinking", thinking: `reasoning ${index}`, signature: `sig${index}` }, ...turn.content] } as AssistantMessage);
      messages.push(tool(`t${index}`, `c${index}`, `output ${index}`));
    }
    return messages;
  }
  const thinkingKept = (messages: readonly Message[]) => messages.flatMap((message) => (message.role === "assistant" ? [message.content.some((part) => part.type === "thinking")] : []));

  it("keeps the thinking of the last assistant turn by default ({type: thinking_turns, value: 1}) and clears the rest, text and calls untouched", async () => {
    const messages = thinkingConversation(3);
    const { edits, messages: cleared } = await prepare(createAnthropicClearThinkingPolicy(), messages);
    expect(thinkingKept(cleared)).toEqual([false, false, true]);
    expect(edits).toMatchObject([{ type: "replace", start: 1, end: 4, reason: "server-side clear_thinking_20251015: the thinking of 2 assistant turns cleared (keep 1)" }]);
    expect(callsOfMessages(cleared)).toEqual(callsOfMessages(messages));
    expect(roles(cleared)).toEqual(roles(messages));
  });

  it("keeps N turns with keep N, everything with \"all\", and has no trigger (it applies on every call)", async () => {
    const messages = thinkingConversation(3);
    expect(thinkingKept((await prepare(createAnthropicClearThinkingPolicy({ keepThinkingTurns: 2 }), messages)).messages)).toEqual([false, true, true]);
    expect((await prepare(createAnthropicClearThinkingPolicy({ keepThinkingTurns: "all" }), messages)).edits).toEqual([]);
    expect((await prepare(createAnthropicClearThinkingPolicy(), thinkingConversation(1))).edits).toEqual([]);
    expect(() => createAnthropicClearThinkingPolicy({ keepThinkingTurns: 0 })).toThrow(/> 0/);
  });
});

function callsOfMessages(messages: readonly Message[]): string[] {
  return messages.flatMap((message) => (message.role === "assistant" ? message.content.flatMap((part) => (part.type === "tool_call" ? [part.argumentsText] : part.type === "text" ? [part.text] : [])) : []));
}

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
