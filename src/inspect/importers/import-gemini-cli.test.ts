import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importGeminiCli } from "./import-gemini-cli.js";

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
    expect(transcript).toMatchObject({ id: "19b8af10-5307-4b43-a9c3-97cecb7ebbfd", format: "gemini-cli", model: "gemini-3-pro-preview" });
    expect(calls.map((call) => call.reportedUsage)).toEqual([
      { promptTokens: 5140, cachedTokens: 2671, completionTokens: 59 + 174 },
      { promptTokens: 10328, cachedTokens: 3307, completionTokens: 1058 + 923 },
    ]);
  });

  it("gives the next call the tool results recorded inside the previous message, and skips the CLI's info messages", () => {
    expect(calls[1]?.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(calls[1]?.request.messages[2]).toMatchObject({ role: "tool", toolName: "read_file", content: expect.stringContaining('"pretest": "npm run build"') });
    expect(calls[0]?.response?.content.map((part) => part.type)).toEqual(["thinking", "tool_call"]);
  });

  it("reads the newer JSONL layout, where a later copy of a message replaces the earlier one", () => {
    const session = JSON.parse(text) as { sessionId: string; projectHash: string; messages: Array<Record<string, unknown>> };
    const partial = { ...session.messages[1], tokens: undefined, toolCalls: undefined };
    const lines = [{ sessionId: session.sessionId, projectHash: session.projectHash }, session.messages[0], partial, session.messages[1], { $set: { lastUpdated: "x" } }, session.messages[3]];
    const jsonl = importGeminiCli(lines.map((line) => JSON.stringify(line)).join("\n"), "session.jsonl").transcripts[0]!;
    expect(jsonl.calls.map((call) => call.reportedUsage?.promptTokens)).toEqual([5140, 10328]);
  });
});
