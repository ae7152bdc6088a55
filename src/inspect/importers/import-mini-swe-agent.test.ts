import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importMiniSweAgent } from "./import-mini-swe-agent.js";

const file = "fixtures/mini-swe-agent.traj.json";
const text = readFileSync(new URL(file, import.meta.url), "utf8");

describe("importMiniSweAgent", () => {
  const { transcripts, problems } = importMiniSweAgent(text, file);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("makes every assistant message a call that saw everything before it", () => {
    expect(problems).toEqual([]);
    expect(transcript).toMatchObject({ id: "weather__cli-101", model: "google/gemini-3-pro-preview", systemKnown: true, toolsKnown: true });
    expect(calls).toHaveLength(3);
    expect(calls[2]?.request.system.staticText).toContain("exactly ONE bash code block");
    expect(calls[2]?.request.tools).toEqual([]);
    expect(calls[2]?.request.messages).toHaveLength(5);
  });

  it("keeps observations as user messages whose origin says where they came from", () => {
    const messages = calls[2]?.request.messages ?? [];
    expect(messages.map((message) => `${message.role}/${message.meta.origin}`)).toEqual([
      "user/user",
      "assistant/model",
      "user/tool",
      "assistant/model",
      "user/harness",
    ]);
  });

  it("reads usage and cost wherever the model wrapper recorded them", () => {
    expect(calls.map((call) => call.reportedUsage)).toEqual([
      { promptTokens: 1662, cachedTokens: 0, completionTokens: 106, cost: 0.004596 },
      { promptTokens: 1790, cachedTokens: 1536, completionTokens: 88, cost: 0.0031 },
      { promptTokens: 1950, cachedTokens: 1792, completionTokens: 41, cost: 0.0041 },
    ]);
  });

  it("keeps the recorded response's reasoning, which the agent did not send back, under its own id", () => {
    const history = calls[1]?.request.messages[1];
    expect(history?.meta.id).toBe("weather__cli-101:2");
    expect(calls[2]?.request.messages[1]).toBe(history);
    expect(calls[0]?.response).toMatchObject({
      content: [
        { type: "thinking", thinking: expect.stringContaining("Locating the conversion"), signature: "CiQB4/H/XlELmDKN5sp6" },
        { type: "text", text: expect.stringContaining("grep -rn kelvin") },
      ],
      meta: { id: "weather__cli-101:2:response" },
      stopReason: "stop",
    });
    expect(calls[1]?.response?.meta.id).toBe("weather__cli-101:4");
  });

  it("reports a file that is not a trajectory", () => {
    expect(importMiniSweAgent('{"info": {}', "x.traj.json").problems).toEqual([{ file: "x.traj.json", reason: expect.stringContaining("not valid JSON") }]);
    expect(importMiniSweAgent('{"info": {}}', "y.traj.json").problems).toEqual([{ file: "y.traj.json", reason: expect.stringContaining("expected a mini-swe-agent trajectory") }]);
  });
});

describe("importMiniSweAgent on a v2 trajectory (mini-swe-agent-1.1)", () => {
  const v2File = "fixtures/mini-swe-agent-v2.traj.json";
  const { transcripts, problems } = importMiniSweAgent(readFileSync(new URL(v2File, import.meta.url), "utf8"), v2File);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("accepts native tool calls and skips the final exit message the model never saw", () => {
    expect(problems).toEqual([]);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.request.messages.map((message) => `${message.role}/${message.meta.origin}`)).toEqual(["user/user", "assistant/model", "tool/tool"]);
    expect(calls[0]?.response?.content.at(-1)).toMatchObject({ type: "tool_call", id: "toolu_01", name: "bash", arguments: { command: "grep -rn kelvin src/ | head -20" } });
    expect(calls.map((call) => call.reportedUsage)).toEqual([
      { promptTokens: 1840, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 61, cost: 0.0071 },
      { promptTokens: 1958, cachedTokens: 1792, cacheWriteTokens: 0, completionTokens: 33, cost: 0.0072 },
    ]);
  });

  it("says the tool schemas are absent", () => {
    expect(transcript?.toolsKnown).toBe(false);
    expect(transcript?.meta).toMatchObject({ exitStatus: "Submitted", trajectoryFormat: "mini-swe-agent-1.1", toolSchemas: expect.stringContaining("absent") });
  });
});
