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

describe("importSweAgent on a recorded SWE-agent 0.x gpt-4 run (agent \"primary\", a demonstration in the prompt)", () => {
  const realFile = "fixtures/swe-agent-0x-gpt4.traj";
  const realText = readFileSync(new URL(realFile, import.meta.url), "utf8");
  const { transcripts, problems } = importSweAgent(realText, realFile);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("reads the history of the 0.x agent name: each of the 5 calls sees the system prompt, the demonstration, the task and every turn before it", () => {
    expect(detectTranscriptFormat(realFile, realText)).toBe("swe-agent");
    expect(problems).toEqual([]);
    expect(transcript).toMatchObject({ systemKnown: true, meta: { exitStatus: "submitted", modelStats: { tokens_sent: 52861, tokens_received: 326, api_calls: 5 } } });
    expect(calls).toHaveLength(5);
    expect(calls[0]?.request.system.staticText).toMatch(/^SETTING: You are an autonomous programmer/);
    expect(calls.map((call) => call.request.messages.length)).toEqual([2, 4, 6, 8, 10]);
    expect(calls[4]?.response?.content).toEqual([{ type: "text", text: expect.stringMatching(/ran successfully[\s\S]*submit/) }]);
    const analyzed = createTranscriptAnalyzer({ tokenizer: "estimate" }).analyze(transcript!);
    expect(analyzed.notes.join("\n")).toContain("52861 prompt tokens sent, 326 received over 5 calls, $0.5384");
    expect(analyzed.totals.promptTokens).toBeGreaterThan(5 * 8000);
  });

  it("reads a demonstration file, which has only a history", () => {
    const demo = JSON.stringify({ history: [{ role: "system", agent: "main", message_type: "system_prompt", content: "sys" }, { role: "user", agent: "main", message_type: "observation", content: "task" }, { role: "assistant", agent: "main", message_type: "action", content: "ls" }] });
    expect(detectTranscriptFormat("demo.traj", demo)).toBe("swe-agent");
    expect(importSweAgent(demo, "demo.traj").transcripts[0]?.calls).toHaveLength(1);
  });

  it("takes the agent's name from the first entry that names one, so an unnamed opening entry does not make it \"main\"", () => {
    const history = [
      { role: "system", message_type: "system_prompt", content: "sys" },
      { role: "user", agent: "primary", message_type: "observation", content: "task" },
      { role: "assistant", agent: "primary", message_type: "action", content: "ls" },
      { role: "assistant", agent: "reviewer", message_type: "action", content: "looks fine" },
    ];
    const calls = importSweAgent(JSON.stringify({ history }), "run.traj").transcripts[0]?.calls ?? [];
    expect(calls).toHaveLength(1);
    expect(calls[0]?.request.messages.map((message) => message.content)).toEqual(["task"]);
  });
});
