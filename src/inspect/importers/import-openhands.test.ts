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
