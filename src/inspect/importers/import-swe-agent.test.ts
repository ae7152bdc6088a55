import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTranscriptAnalyzer } from "../analysis/analyze-transcript.js";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importSweAgent } from "./import-swe-agent.js";

const file = "fixtures/swe-agent-gpt-4o.traj";
const text = readFileSync(new URL(file, import.meta.url), "utf8");

describe("importSweAgent on a recorded gpt-4o run", () => {
  const { transcripts, problems } = importSweAgent(text, file);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("is detected from its content", () => {
    expect(detectTranscriptFormat(file, text)).toBe("swe-agent");
  });

  it("makes every assistant message of the history a call that saw everything before it", () => {
    expect(problems).toEqual([]);
    expect(transcript).toMatchObject({ id: "swe-agent-gpt-4o", format: "swe-agent", model: "gpt-4o", systemKnown: true, toolsKnown: false });
    expect(calls).toHaveLength(5);
    expect(calls[0]?.request.system.staticText).toMatch(/^SETTING: You are an autonomous programmer/);
    expect(calls[0]?.request.messages.map((message) => message.role)).toEqual(["user"]);
    expect(calls[4]?.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant", "tool", "assistant", "tool"]);
    expect(calls[0]?.response?.content.at(-1)).toMatchObject({ type: "tool_call", id: "call_fJuazlMUN5fQDQ73G6XSpYpx", name: "find_file", arguments: { file_name: "missing_colon.py" } });
    expect(calls[1]?.request.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "call_fJuazlMUN5fQDQ73G6XSpYpx", toolName: "find_file" });
  });

  it("keeps the run totals, since no call has usage of its own", () => {
    expect(calls.every((call) => call.reportedUsage === undefined)).toBe(true);
    expect(transcript?.meta).toMatchObject({ exitStatus: "submitted", modelStats: { tokens_sent: 7141, tokens_received: 243, api_calls: 5 } });
    const analyzed = createTranscriptAnalyzer({ tokenizer: "estimate" }).analyze(transcript!);
    expect(analyzed.notes.join("\n")).toContain("7141 prompt tokens sent, 243 received over 5 calls, $0.0195");
    expect(analyzed.totals.undeclaredBreaks).toBe(0);
  });
});
