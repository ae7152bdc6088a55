import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importCodexRollout } from "./import-codex-rollout.js";

const file = "fixtures/codex-rollout.jsonl";
const text = readFileSync(new URL(file, import.meta.url), "utf8");
const session = "0199a213-81c0-7800-8aa1-bbab2a035a53";

function rollout(...lines: [string, Record<string, unknown>][]): string {
  return lines.map(([type, payload]) => JSON.stringify({ timestamp: "2025-11-30T00:00:00.000Z", type, payload })).join("\n");
}
const user = (text: string) => ["response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] }] as [string, Record<string, unknown>];
const assistant = (text: string) => ["response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text }] }] as [string, Record<string, unknown>];
const tokens = (input: number) =>
  ["event_msg", { type: "token_count", info: { last_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: 1 } } }] as [string, Record<string, unknown>];

describe("importCodexRollout", () => {
  const { transcripts, problems } = importCodexRollout(text, file);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("makes one call per model response, ended by its token count", () => {
    expect(transcript).toMatchObject({ id: session, format: "codex", model: "gpt-5-codex", systemKnown: true, toolsKnown: false });
    expect(calls.map((call) => call.source.line)).toEqual([8, 12, 17, 22]);
    expect(calls.map((call) => call.reportedUsage)).toEqual([
      { promptTokens: 5012, cachedTokens: 4864, completionTokens: 180 },
      { promptTokens: 5400, cachedTokens: 5120, completionTokens: 75 },
      { promptTokens: 5520, cachedTokens: 5376, completionTokens: 96 },
      { promptTokens: 5690, cachedTokens: 5504, completionTokens: 22 },
    ]);
  });

  it("takes the system prompt from the session meta and marks Codex's injected context as harness", () => {
    const request = calls[0]?.request;
    expect(request?.system.staticText).toContain("You are Codex, based on GPT-5.");
    expect(request?.messages.map((message) => message.meta.origin)).toEqual(["harness", "harness", "user"]);
  });

  it("converts reasoning, function calls and custom tool calls, and their outputs", () => {
    expect(calls[0]?.response?.content).toEqual([
      { type: "thinking", thinking: "**Inspecting the API call**", signature: "gAAAAABo8x1Qz" },
      expect.objectContaining({ type: "tool_call", id: "call_k1", name: "shell", arguments: expect.objectContaining({ command: ["bash", "-lc", "cat src/api.ts"] }) }),
    ]);
    expect(calls[1]?.request.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "call_k1", toolName: "shell" });
    expect(calls[2]?.response?.content[0]).toMatchObject({ type: "tool_call", name: "apply_patch", arguments: undefined });
    expect(calls[3]?.request.messages.at(-1)).toMatchObject({ role: "tool", toolName: "apply_patch", content: expect.stringContaining("Success.") });
  });

  it("keeps message ids and objects stable across calls", () => {
    expect(calls[3]?.request.messages.map((message) => message.meta.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8].map((index) => `${session}:${index}`));
    expect(calls[1]?.request.messages[3]).toBe(calls[0]?.response);
    expect(calls[3]?.request.messages[0]).toBe(calls[0]?.request.messages[0]);
  });

  it("reports a response item that does not fit its type and counts items it cannot represent", () => {
    expect(problems).toEqual([{ file, line: 21, reason: expect.stringContaining("function_call: expected string call_id") }]);
    expect(transcript?.meta).toMatchObject({ skipped: { web_search_call: 1 }, compactions: 0 });
  });

  it("restarts the history at a compaction, with ids that cannot collide with the old ones", () => {
    const compacted = rollout(
      user("Explain the repo."),
      assistant("It is a weather CLI."),
      tokens(100),
      ["compacted", { message: "summary", replacement_history: [{ type: "message", role: "user", content: [{ type: "input_text", text: "Summary: a weather CLI." }] }] }],
      user("Now add a --json flag."),
      assistant("Added."),
      tokens(40),
    );
    const imported = importCodexRollout(compacted, "rollout-2025-11-30T00-00-00-x.jsonl").transcripts[0]?.calls ?? [];
    expect(imported[1]?.request.messages.map((message) => [message.meta.id, message.role])).toEqual([
      ["rollout-2025-11-30T00-00-00-x:g1.0", "user"],
      ["rollout-2025-11-30T00-00-00-x:g1.1", "user"],
    ]);
    expect(imported[1]?.reportedUsage?.promptTokens).toBe(40);
    expect(imported.map((call) => call.declaredBreak)).toEqual([undefined, { reason: expect.stringContaining("compaction") }]);
  });

  it("ends a call at any input when the rollout has no token counts", () => {
    const call = (id: string) => ["response_item", { type: "function_call", name: "shell", arguments: "{}", call_id: id }] as [string, Record<string, unknown>];
    const old = rollout(user("List files."), call("c1"), ["response_item", { type: "function_call_output", call_id: "c1", output: "a.ts" }], assistant("One file."));
    const imported = importCodexRollout(old, "old.jsonl").transcripts[0]?.calls ?? [];
    expect(imported.map((entry) => entry.request.messages.length)).toEqual([1, 3]);
  });
});

describe("importCodexRollout on a Codex 0.142 rollout with a repeated token count", () => {
  const repeatedFile = "fixtures/codex-0142-repeated-token-count.jsonl";
  const { transcripts } = importCodexRollout(readFileSync(new URL(repeatedFile, import.meta.url), "utf8"), repeatedFile);
  const calls = transcripts[0]?.calls ?? [];

  it("does not end a call at a token_count that repeats the previous running total", () => {
    expect(transcripts[0]).toMatchObject({ id: "c1", model: "gpt-5.5" });
    expect(calls).toHaveLength(2);
    expect(calls[0]?.reportedUsage).toEqual({ promptTokens: 14475, cachedTokens: 2432, completionTokens: 216 });
    // The second response (apply_patch, then pytest) has no token count of its own in the file.
    expect(calls[1]?.reportedUsage).toBeUndefined();
    expect(calls[1]?.response?.content.map((part) => (part.type === "tool_call" ? part.name : part.type))).toEqual(["apply_patch", "exec_command"]);
  });
});

describe("importCodexRollout on a real Codex 0.104 (Codex Desktop) first turn, text redacted, token counts as recorded", () => {
  const realFile = "fixtures/codex-0104-first-turn.jsonl";
  const { transcripts, problems } = importCodexRollout(readFileSync(new URL(realFile, import.meta.url), "utf8"), realFile);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];
  const sum = (pick: (call: (typeof calls)[number]) => number | undefined) => calls.reduce((total, call) => total + (pick(call) ?? 0), 0);

  it("makes one call per distinct running total: 21 calls whose usage adds up to the file's last total_token_usage", () => {
    expect(problems).toEqual([]);
    expect(transcript).toMatchObject({ id: "019c8a4c-ed82-79a1-aa28-7738fc5ab61a", model: "gpt-5.3-codex", systemKnown: true });
    expect(calls).toHaveLength(21);
    expect(calls.every((call) => call.model === "gpt-5.3-codex" && call.effort === "high")).toBe(true);
    expect(calls[0]?.reportedUsage).toEqual({ promptTokens: 17203, cachedTokens: 3456, completionTokens: 358 });
    expect([sum((call) => call.reportedUsage?.promptTokens), sum((call) => call.reportedUsage?.cachedTokens), sum((call) => call.reportedUsage?.completionTokens)]).toEqual([673392, 600576, 6682]);
  });

  it("keeps every tool call (26 function_call, 1 custom apply_patch) and notes the web search it cannot represent", () => {
    const toolCalls = calls.flatMap((call) => call.response?.content.filter((part) => part.type === "tool_call") ?? []);
    expect(toolCalls).toHaveLength(27);
    expect(toolCalls.filter((part) => part.name === "apply_patch")).toHaveLength(1);
    expect(transcript?.meta).toMatchObject({ skipped: { web_search_call: 1 }, compactions: 0 });
    expect(transcript?.notes).toEqual([expect.stringContaining("(web_search_call ×1)")]);
    const last = calls.at(-1)?.request.messages ?? [];
    expect(last.filter((message) => message.role === "tool")).toHaveLength(27);
  });
});

describe("importCodexRollout on a rollout from before the envelope (Codex CLI, mid 2025)", () => {
  // The layout Codex CLI wrote until about 0.3x: a bare header, state markers, bare response items, no token counts.
  const lines = [
    { id: "c27a914d", timestamp: "2025-08-20T13:20:47.060Z", instructions: null, git: { branch: "main" } },
    { record_type: "state" },
    { type: "message", id: null, role: "user", content: [{ type: "input_text", text: "List the files." }] },
    { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "opaque" },
    { type: "function_call", id: "fc_1", name: "shell", arguments: '{"command":["ls"]}', call_id: "call_1" },
    { record_type: "state" },
    { type: "function_call_output", call_id: "call_1", output: "README.md" },
    { type: "message", role: "assistant", content: [{ type: "output_text", text: "One file." }] },
  ];
  const text = lines.map((line) => JSON.stringify(line)).join("\n");

  it("is detected from its state markers and read as a rollout: one call per model turn, ended by the next input", () => {
    expect(detectTranscriptFormat("2025-08-20.jsonl", text)).toBe("codex");
    const { transcripts, problems } = importCodexRollout(text, "old.jsonl");
    expect(problems).toEqual([]);
    const calls = transcripts[0]?.calls ?? [];
    expect(transcripts[0]?.id).toBe("c27a914d");
    expect(calls.map((call) => call.request.messages.map((message) => message.role))).toEqual([["user"], ["user", "assistant", "tool"]]);
    expect(calls[0]?.response?.content.map((part) => (part.type === "tool_call" ? part.name : part.type))).toEqual(["thinking", "shell"]);
    expect(calls.every((call) => call.reportedUsage === undefined)).toBe(true);
  });

  it("skips only the state markers: a line that is a bare string is still reported", () => {
    const { problems } = importCodexRollout(`${text}\n"skip"\n`, "old.jsonl");
    expect(problems).toEqual([{ file: "old.jsonl", line: 9, reason: 'expected a rollout line {"timestamp", "type", "payload": {…}}' }]);
  });
});
