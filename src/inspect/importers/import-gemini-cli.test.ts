import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTranscriptAnalyzer } from "../analysis/analyze-transcript.js";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importGeminiCli } from "./import-gemini-cli.js";

/** A real Gemini CLI session (gemini-3-flash-preview, texts shortened by whoever quoted it; origin in fixtures/README.md). */
const file = "fixtures/gemini-cli-session.json";
const text = readFileSync(new URL(file, import.meta.url), "utf8");

describe("importGeminiCli", () => {
  const { transcripts, problems } = importGeminiCli(text, file);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("is detected from its content", () => {
    expect(detectTranscriptFormat(file, text)).toBe("gemini-cli");
  });

  it("makes each gemini message a call, with its tokens (input includes cached; thoughts are output)", () => {
    expect(problems).toEqual([]);
    expect(transcript).toMatchObject({ id: "5cdd2021-574a-483d-8a4b-1b97e8bbce88", format: "gemini-cli", model: "gemini-3-flash-preview" });
    expect(calls.map((call) => call.reportedUsage)).toEqual([
      { promptTokens: 6907, cachedTokens: 4062, completionTokens: 82 + 247 },
      { promptTokens: 7318, cachedTokens: 6081, completionTokens: 86 + 1073 },
      { promptTokens: 8509, cachedTokens: 0, completionTokens: 49 + 94 },
    ]);
  });

  it("reads the thoughts, the text and every tool call of a message", () => {
    expect(calls[0]?.response?.content.map((part) => part.type)).toEqual(["thinking", "text", "tool_call", "tool_call"]);
    expect(calls[0]?.response?.content[0]).toEqual({ type: "thinking", thinking: "Exploring the Setup: I'm c..." });
    expect(calls[0]?.response?.content[2]).toMatchObject({ type: "tool_call", id: "9y4yn8tb", name: "write_file", arguments: { file_path: "hello.txt", content: "Hello, World!\n" } });
    expect(calls[2]?.response?.content.map((part) => part.type)).toEqual(["text", "tool_call"]);
  });

  it("gives the next call the tool results recorded inside the previous message, errors marked", () => {
    expect(calls[1]?.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool"]);
    expect(calls[1]?.request.messages[2]).toMatchObject({ role: "tool", toolCallId: "9y4yn8tb", toolName: "write_file", isError: true, content: expect.stringMatching(/^Tool "write_file" not found/) });
    expect(calls[2]?.request.messages.slice(4)).toMatchObject([
      { role: "assistant" },
      { role: "tool", toolName: "generalist", isError: false, content: "Subagent 'generalist' failed. Error: You have exhausted your daily quota on this model." },
    ]);
  });

  it("sees each request extend the one before, so the reported cache miss of the last call is the server's", () => {
    const analyzed = createTranscriptAnalyzer({ tokenizer: "estimate" }).analyze(transcript!);
    expect(analyzed.totals.breaks).toBe(0);
    expect(analyzed.calls.map((call) => call.reportedCachedTokens)).toEqual([4062, 6081, 0]);
    expect(analyzed.calls[2]?.reusablePrefixTokens).toBeGreaterThan(0);
  });

  it("reads the newer JSONL layout, where a later copy of a message replaces the earlier one", () => {
    const session = JSON.parse(text) as { sessionId: string; projectHash: string; messages: Array<Record<string, unknown>> };
    const partial = { ...session.messages[1], tokens: undefined, toolCalls: undefined };
    const lines = [{ sessionId: session.sessionId, projectHash: session.projectHash }, session.messages[0], partial, session.messages[1], { $set: { lastUpdated: "x" } }, session.messages[2]];
    const jsonl = importGeminiCli(lines.map((line) => JSON.stringify(line)).join("\n"), "session.jsonl").transcripts[0]!;
    expect(jsonl.calls.map((call) => call.reportedUsage?.promptTokens)).toEqual([6907, 7318]);
    expect(jsonl.calls[1]?.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool"]);
  });

  it("reads the JSONL layout's $set.messages as the history so far: the opening <session_context> is part of the first request", () => {
    const jsonlFile = "fixtures/gemini-cli-0.4x-session.jsonl";
    const jsonlText = readFileSync(new URL(jsonlFile, import.meta.url), "utf8");
    expect(detectTranscriptFormat(jsonlFile, jsonlText)).toBe("gemini-cli");
    const result = importGeminiCli(jsonlText, jsonlFile);
    expect(result.problems).toEqual([]);
    const [session] = result.transcripts;
    expect(session).toMatchObject({ id: "d90558c4-862b-4799-946b-4186a8294321", model: "gemini-3.1-pro-preview" });
    expect(session?.calls).toHaveLength(1);
    expect(session?.calls[0]?.reportedUsage).toEqual({ promptTokens: 7, cachedTokens: 0, completionTokens: 9 });
    expect(session?.calls[0]?.request.messages.map((message) => [message.role, message.meta.origin])).toEqual([
      ["user", "harness"],
      ["user", "user"],
    ]);
    expect(session?.calls[0]?.request.messages[0]?.content).toMatch(/^<session_context>\nThis is the Gemini CLI\./);
    expect(session?.calls[0]?.response?.content).toEqual([{ type: "text", text: "Hello from the fake gateway. This is the model reply text." }]);
  });

  it("lets a later $set.messages replace the history, keeps tool results echoed as a user turn once, and counts tool-use prompt tokens as prompt", () => {
    const header = { sessionId: "s", projectHash: "p" };
    const reply = { id: "g1", type: "gemini", content: "", tokens: { input: 100, cached: 40, output: 5, thoughts: 1, tool: 7 }, toolCalls: [{ id: "c1", name: "read_file", args: {}, status: "success", result: [{ functionResponse: { id: "c1", name: "read_file", response: { output: "data" } } }] }] };
    const echo = { id: "u2", type: "user", content: [{ functionResponse: { id: "c1", name: "read_file", response: { output: "data" } } }] };
    const masked = { ...echo, id: "u3", content: [{ functionResponse: { id: "c9", name: "grep", response: { output: "masked" } } }] };
    const lines = [header, { id: "u1", type: "user", content: "go" }, reply, echo, { $set: { messages: [{ id: "u1", type: "user", content: "go" }, reply, masked] } }, { id: "g2", type: "gemini", content: "done" }, "not an object", "{"];
    const text = lines.map((line) => (typeof line === "string" && line === "{" ? line : JSON.stringify(line))).join("\n");
    const { transcripts: [session], problems } = importGeminiCli(text, "s.jsonl");
    expect(problems.map((problem) => problem.line).sort()).toEqual([7, 8]);
    expect(session?.calls[0]?.reportedUsage).toEqual({ promptTokens: 107, cachedTokens: 40, completionTokens: 6 });
    expect(session?.calls[1]?.request.messages.map((message) => (message.role === "tool" ? `tool:${message.toolCallId}` : message.role))).toEqual(["user", "assistant", "tool:c1", "tool:c9"]);
  });

  it("follows $rewindTo: the rewound message and every later one leave the history, an unknown id clears it", () => {
    const user = (id: string) => ({ id, type: "user", content: id });
    const reply = (id: string) => ({ id, type: "gemini", content: id, tokens: { input: 10, output: 1 } });
    const lines = [{ sessionId: "s", projectHash: "p" }, user("u1"), reply("g1"), user("u2"), reply("g2"), { $rewindTo: "u2" }, user("u3"), { ...reply("g1"), content: "g1 again" }, reply("g3")];
    const { transcripts: [session] } = importGeminiCli(lines.map((line) => JSON.stringify(line)).join("\n"), "s.jsonl");
    // g1's later copy replaces it in place; g2 was rewound away.
    expect(session?.calls.map((call) => call.request.messages.map((message) => message.content))).toEqual([
      ["u1"],
      ["u1", [{ type: "text", text: "g1 again" }], "u3"],
    ]);
    const cleared = [...lines, { $rewindTo: "unknown" }, user("u4"), reply("g4")];
    const { transcripts: [after] } = importGeminiCli(cleared.map((line) => JSON.stringify(line)).join("\n"), "s.jsonl");
    expect(after?.calls.map((call) => call.request.messages.length)).toEqual([1]);
  });

  it("reads 20,000 rewinds in linear time (each copied every id before: a 2 MB file took 34 s)", () => {
    const count = 20_000;
    const lines = [JSON.stringify({ sessionId: "s", projectHash: "p" })];
    for (let index = 0; index < count; index += 1) lines.push(JSON.stringify({ id: `m${index}`, type: "user", content: "x" }));
    for (let index = 0; index < count; index += 1) lines.push(JSON.stringify({ $rewindTo: `m${count - 1}` }), JSON.stringify({ id: `m${count - 1}`, type: "user", content: "y" }));
    const started = performance.now();
    importGeminiCli(lines.join("\n"), "s.jsonl");
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
