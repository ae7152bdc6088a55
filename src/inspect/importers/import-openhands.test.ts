import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTranscriptAnalyzer } from "../analysis/analyze-transcript.js";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importOpenHands } from "./import-openhands.js";
import { opensAsJsonLines } from "./read-json-lines.js";

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

describe("importOpenHands on V1 SDK events (OpenHands CLI 1.x)", () => {
  // Event shapes of OpenHands CLI 1.16 / SDK 1.21, one per line here (the CLI's own --json output is
  // pretty-printed, tested below); the action and observation follow two events quoted verbatim from a
  // real run. No complete real stream was found to keep.
  const text = (value: string) => [{ cache_prompt: false, type: "text", text: value }];
  const events = [
    { id: "s", kind: "SystemPromptEvent", source: "agent", system_prompt: { type: "text", text: "You are OpenHands agent." }, tools: [] },
    { id: "u", kind: "MessageEvent", source: "user", llm_message: { role: "user", content: text("Run the bash command: echo OPENHANDS_PING_OK") }, extended_content: text("<EXTRA_INFO>skills</EXTRA_INFO>") },
    { id: "057048a3", kind: "ActionEvent", source: "agent", thought: [], reasoning_content: null, thinking_blocks: [], action: { command: "echo OPENHANDS_PING_OK", kind: "TerminalAction" }, tool_name: "terminal", tool_call_id: "eaadcec5", tool_call: { id: "eaadcec5", name: "terminal", arguments: '{"command": "echo OPENHANDS_PING_OK"}', origin: "completion" }, llm_response_id: "chatcmpl-25a0fa6c" },
    { id: "e1f7e9b3", kind: "ObservationEvent", source: "environment", tool_name: "terminal", tool_call_id: "eaadcec5", observation: { content: text("OPENHANDS_PING_OK"), is_error: false, exit_code: 0, kind: "TerminalObservation" }, action_id: "057048a3" },
    { id: "m", kind: "MessageEvent", source: "agent", llm_message: { role: "assistant", content: text("Done.") }, llm_response_id: "chatcmpl-2" },
    { id: "st", kind: "ConversationStateUpdateEvent", key: "stats", value: { usage_to_metrics: { agent: { token_usages: [{ model: "openai/qwen-local", prompt_tokens: 5000, completion_tokens: 40, cache_read_tokens: 0, cache_write_tokens: 0, response_id: "chatcmpl-25a0fa6c" }, { model: "openai/qwen-local", prompt_tokens: 5100, completion_tokens: 5, cache_read_tokens: 4990, cache_write_tokens: 0, response_id: "chatcmpl-2" }] } } } },
  ];
  const jsonl = events.map((event) => JSON.stringify(event)).join("\n");

  it("is detected and read from the JSONL stream: system prompt, calls per llm_response_id, usage from the stats' token_usages", () => {
    expect(detectTranscriptFormat("ping.jsonl", jsonl)).toBe("openhands");
    const { transcripts, problems } = importOpenHands(jsonl, "ping.jsonl");
    const [transcript] = transcripts;
    expect(problems).toEqual([]);
    expect(transcript).toMatchObject({ systemKnown: true, model: "openai/qwen-local" });
    expect(transcript?.calls.map((call) => call.reportedUsage)).toEqual([
      { promptTokens: 5000, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 40 },
      { promptTokens: 5100, cachedTokens: 4990, cacheWriteTokens: 0, completionTokens: 5 },
    ]);
    expect(transcript?.calls[0]?.request.system.staticText).toBe("You are OpenHands agent.");
    expect(transcript?.calls[0]?.request.messages[0]?.content).toBe("Run the bash command: echo OPENHANDS_PING_OK\n<EXTRA_INFO>skills</EXTRA_INFO>");
    expect(transcript?.calls[1]?.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(transcript?.calls[1]?.request.messages[2]).toMatchObject({ role: "tool", toolCallId: "eaadcec5", toolName: "terminal", content: "OPENHANDS_PING_OK", isError: false });
  });

  it("reads the same events as a JSON array and says when no usage was recorded", () => {
    const [transcript] = importOpenHands(JSON.stringify(events.slice(0, 5)), "events.json").transcripts;
    expect(transcript?.calls).toHaveLength(2);
    expect(transcript?.notes).toEqual([expect.stringContaining("no per-call usage")]);
  });
});

describe("importOpenHands on one file of a V1 events/ folder", () => {
  it("imports nothing and says to inspect the conversation's folder, which is one run", () => {
    const event = { id: "e1", kind: "ObservationEvent", source: "environment", tool_call_id: "c1", observation: { content: [] } };
    const { transcripts, problems } = importOpenHands(JSON.stringify(event), "events/event-00003-e1.json");
    expect(transcripts).toEqual([]);
    expect(problems).toEqual([{ file: "events/event-00003-e1.json", reason: expect.stringContaining("inspect the conversation's folder (the one holding base_state.json and events/)") }]);
  });
});

describe("importOpenHands on a trajectory cut off mid-write", () => {
  it("reports it once as not valid JSON, without reading its pretty-printed lines as a JSONL stream", () => {
    const whole = readFileSync(new URL("fixtures/openhands-wrong-initial-state.json", import.meta.url), "utf8");
    const cut = whole.slice(0, Math.floor(whole.length / 2));
    expect(opensAsJsonLines(cut)).toBe(false);
    expect(opensAsJsonLines(JSON.stringify(JSON.parse(whole)).slice(0, 5000))).toBe(false);
    expect(importOpenHands(cut, "cut.json")).toEqual({ transcripts: [], problems: [{ file: "cut.json", reason: expect.stringMatching(/^not valid JSON \(/) }] });
  });

  it("still reads a V1 stream whose last line was cut off, reporting that line", () => {
    const lines = [
      { id: "u", kind: "MessageEvent", source: "user", llm_message: { role: "user", content: "go" } },
      { id: "m", kind: "MessageEvent", source: "agent", llm_message: { role: "assistant", content: "done" }, llm_response_id: "r1" },
    ].map((event) => JSON.stringify(event));
    const text = `${lines.join("\n")}\n{"id": "x", "kind": "Mess`;
    expect(opensAsJsonLines(text)).toBe(true);
    const { transcripts, problems } = importOpenHands(text, "stream.jsonl");
    expect(transcripts[0]?.calls).toHaveLength(1);
    expect(problems).toEqual([{ file: "stream.jsonl", line: 3, reason: expect.stringContaining("truncated line") }]);
  });
});

describe("importOpenHands on `openhands --headless --json` output (OpenHands CLI 1.x)", () => {
  // What the CLI's json_callback prints: "--JSON Event--", then json.dumps(event, indent=2, sort_keys=True);
  // never the SystemPromptEvent; its own lines between events.
  const sortedKeys = (_key: string, value: unknown) =>
    value !== null && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value;
  const printed = (event: object) => `--JSON Event--\n${JSON.stringify(event, sortedKeys, 2)}`;
  const user = { id: "u", kind: "MessageEvent", source: "user", llm_message: { role: "user", content: [{ type: "text", text: "Run echo OK" }] } };
  const action = { id: "a", kind: "ActionEvent", source: "agent", thought: [], tool_name: "terminal", tool_call_id: "c1", tool_call: { id: "c1", name: "terminal", arguments: '{"command": "echo OK"}' }, llm_response_id: "r1" };
  const observation = { id: "o", kind: "ObservationEvent", source: "environment", tool_name: "terminal", tool_call_id: "c1", observation: { content: [{ type: "text", text: "OK" }], is_error: false } };
  const answer = { id: "m", kind: "MessageEvent", source: "agent", llm_message: { role: "assistant", content: [{ type: "text", text: "Done." }] }, llm_response_id: "r2" };
  const stats = { id: "st", kind: "ConversationStateUpdateEvent", key: "stats", value: { usage_to_metrics: { agent: { token_usages: [{ model: "m", prompt_tokens: 900, completion_tokens: 12, cache_read_tokens: 0, response_id: "r1" }, { model: "m", prompt_tokens: 960, completion_tokens: 3, cache_read_tokens: 896, response_id: "r2" }] } } } };

  it("is detected and read event by event: two calls with their usage, the CLI's own lines ignored", () => {
    const stdout = ["Initializing agent...", printed(user), printed(action), "Agent is working", printed(observation), printed(answer), printed(stats), "Agent finished", "Conversation ID: 0f3c"].join("\n");
    expect(detectTranscriptFormat("output.log", stdout)).toBe("openhands");
    const { transcripts, problems } = importOpenHands(stdout, "output.log");
    expect(problems).toEqual([]);
    const calls = transcripts[0]?.calls ?? [];
    expect(calls.map((call) => call.reportedUsage)).toEqual([
      { promptTokens: 900, cachedTokens: 0, completionTokens: 12 },
      { promptTokens: 960, cachedTokens: 896, completionTokens: 3 },
    ]);
    expect(calls[1]?.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(transcripts[0]?.systemKnown).toBe(false);
  });

  it("reports an event cut short and still reads the next one", () => {
    const cut = printed(action).split("\n").slice(0, 4).join("\n");
    const { transcripts, problems } = importOpenHands([printed(user), cut, printed(answer)].join("\n"), "output.log");
    // The cut event's marker is the line after the user event's 15 lines.
    expect(printed(user).split("\n")).toHaveLength(15);
    expect(problems).toEqual([{ file: "output.log", line: 16, reason: expect.stringContaining("the event after --JSON Event-- is not valid JSON") }]);
    expect(transcripts[0]?.calls.map((call) => call.response?.content)).toEqual([[{ type: "text", text: "Done." }]]);
  });
});
