import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTranscriptAnalyzer } from "../analysis/analyze-transcript.js";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importOpenHands } from "./import-openhands.js";

const file = "fixtures/openhands-claude-3-5-sonnet.json";
const text = readFileSync(new URL(file, import.meta.url), "utf8");

describe("importOpenHands on a recorded claude-3-5-sonnet run (LiteLLM usage)", () => {
  const { transcripts, problems } = importOpenHands(text, file);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("is detected from its content", () => {
    expect(detectTranscriptFormat(file, text)).toBe("openhands");
  });

  it("makes one call per model response, though the response repeats on action and observation", () => {
    expect(problems).toEqual([]);
    expect(transcript).toMatchObject({ format: "openhands", model: "claude-3-5-sonnet-20241022", toolsKnown: false, systemKnown: false });
    expect(calls).toHaveLength(3);
    expect(calls.map((call) => call.reportedUsage)).toEqual([
      { promptTokens: 3439, cachedTokens: 0, cacheWriteTokens: 3435, completionTokens: 104 },
      { promptTokens: 3601, cachedTokens: 3435, cacheWriteTokens: 160, completionTokens: 1142 },
      { promptTokens: 4769, cachedTokens: 3595, cacheWriteTokens: 1168, completionTokens: 693 },
    ]);
  });

  it("rebuilds what each call saw: the task, then each response and its tool result", () => {
    expect(calls[0]?.request.messages.map((message) => message.role)).toEqual(["user"]);
    expect(calls[2]?.request.messages.map((message) => `${message.role}/${message.meta.origin}`)).toEqual(["user/user", "assistant/model", "tool/tool", "assistant/model", "tool/tool"]);
    expect(calls[1]?.request.messages[2]).toMatchObject({ role: "tool", toolCallId: "toolu_01W9Z8jBctr8X2frZV9p1RYs", toolName: "execute_bash" });
    expect(calls[0]?.response?.content.at(-1)).toMatchObject({ type: "tool_call", name: "execute_bash", arguments: { command: "mkdir -p /workspace/todo-app" } });
  });

  it("prices the cache reads and writes LiteLLM reports", () => {
    const analyzed = createTranscriptAnalyzer({ tokenizer: "estimate", pricing: { kind: "fixed", fixed: { name: "claude-sonnet-4-5", pricing: { provider: "anthropic", cacheRule: "anthropic-explicit", input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 } } } }).analyze(transcript!);
    expect(analyzed.totals.cost).toMatchObject({ basis: "reported", cacheWriteTokens: 3435 + 160 + 1168, cachedTokens: 3435 + 3595 });
    expect(analyzed.totals.undeclaredBreaks).toBe(0);
  });
});

describe("importOpenHands on OpenHands' own recorded test runs (origin in fixtures/README.md)", () => {
  const load = (path: string) => importOpenHands(readFileSync(new URL(path, import.meta.url), "utf8"), path);

  it("reads a claude-3-5-sonnet run: 4 responses (read, run, read, finish) with their LiteLLM usage", () => {
    const { transcripts, problems } = load("fixtures/openhands-wrong-initial-state.json");
    const calls = transcripts[0]?.calls ?? [];
    expect(problems).toEqual([]);
    expect(transcripts[0]?.notes).toBeUndefined();
    expect(calls.map((call) => [call.reportedUsage?.promptTokens, call.reportedUsage?.cachedTokens, call.reportedUsage?.completionTokens])).toEqual([
      [3475, 0, 95],
      [3616, 3471, 111],
      [3804, 3610, 85],
      [3933, 3798, 67],
    ]);
    expect(calls.map((call) => call.response?.content.find((part) => part.type === "tool_call"))).toMatchObject([{ name: "str_replace_editor" }, { name: "execute_bash" }, { name: "str_replace_editor" }, { name: "finish" }]);
    expect(calls[3]?.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant", "tool"]);
  });

  it("reads a gpt-4o chat: agent messages are calls without recorded usage, the finish carries its own", () => {
    const { transcripts } = load("fixtures/openhands-gpt-4o-interactions.json");
    const calls = transcripts[0]?.calls ?? [];
    expect(transcripts[0]?.model).toBe("gpt-4o-2024-08-06");
    expect(calls.map((call) => call.reportedUsage)).toEqual([undefined, undefined, { promptTokens: 2473, cachedTokens: 2304, completionTokens: 10 }]);
    expect(calls[2]?.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
  });
});

describe("importOpenHands on a condensation", () => {
  const response = (id: string, call: string) => ({ id, model: "m", choices: [{ message: { role: "assistant", content: null, tool_calls: [{ id: call, type: "function", function: { name: "execute_bash", arguments: "{}" } }] } }], usage: { prompt_tokens: 10, completion_tokens: 1 } });
  const action = (id: number, responseId: string, call: string) => ({ id, source: "agent", action: "run", tool_call_metadata: { function_name: "execute_bash", tool_call_id: call, model_response: response(responseId, call) } });
  const observation = (id: number, call: string) => ({ id, source: "agent", observation: "run", content: `out ${id}`, tool_call_metadata: { function_name: "execute_bash", tool_call_id: call } });

  it("drops the forgotten events from later prompts, puts the summary in their place and declares the break", () => {
    const events = [
      { id: 0, source: "user", action: "message", args: { content: "task" } },
      action(1, "r1", "c1"),
      observation(2, "c1"),
      action(3, "r2", "c2"),
      observation(4, "c2"),
      { id: 5, source: "agent", action: "condensation", args: { forgotten_events_start_id: 1, forgotten_events_end_id: 2, summary: "ran c1", summary_offset: 1 } },
      { id: 6, source: "user", observation: "recall", content: "workspace context" },
      action(7, "r3", "c3"),
    ];
    const { transcripts } = importOpenHands(JSON.stringify(events), "condensed.json");
    const calls = transcripts[0]?.calls ?? [];
    expect(calls.map((call) => call.declaredBreak?.reason)).toEqual([undefined, undefined, expect.stringContaining("condensation")]);
    expect(calls[2]?.request.messages.map((message) => (message.role === "user" ? `${message.role}:${message.content}` : message.role))).toEqual(["user:task", "user:ran c1", "assistant", "tool"]);
    expect(transcripts[0]?.notes).toEqual([expect.stringContaining("(recall ×1)")]);
  });
});
