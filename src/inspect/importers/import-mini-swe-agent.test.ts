import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importMiniSweAgent } from "./import-mini-swe-agent.js";
import { createTranscriptAnalyzer } from "../analysis/analyze-transcript.js";
import { detectTranscriptFormat } from "./detect-transcript-format.js";

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

describe("importMiniSweAgent on a recorded v2 trajectory (mini-swe-agent 2.3.0, deepseek, SWE-bench astropy__astropy-12907)", () => {
  const v2File = "fixtures/mini-swe-agent-v2.traj.json";
  const v2Text = readFileSync(new URL(v2File, import.meta.url), "utf8");
  const { transcripts, problems } = importMiniSweAgent(v2Text, v2File);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("is detected from its content", () => {
    expect(detectTranscriptFormat(v2File, v2Text)).toBe("mini-swe-agent");
  });

  it("accepts native tool calls and skips the final exit message the model never saw", () => {
    expect(problems).toEqual([]);
    expect(transcript).toMatchObject({ id: "astropy__astropy-12907", model: "deepseek/deepseek-chat" });
    expect(calls).toHaveLength(6);
    expect(calls[1]?.request.messages.map((message) => `${message.role}/${message.meta.origin}`)).toEqual(["user/user", "assistant/model", "tool/tool"]);
    expect(calls[0]?.response?.content).toEqual([
      { type: "text", text: "Let me start by understanding the issue and finding the relevant code." },
      { type: "tool_call", id: "call_00_KVNoGhlWmTJUowwDsUa74968", name: "bash", argumentsText: expect.any(String), arguments: { command: 'cd /testbed && find . -path "*/separable*" -type f | head -20' } },
    ]);
    expect(calls.every((call) => call.response?.stopReason === "tool_calls")).toBe(true);
    expect(calls[5]?.request.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: expect.stringMatching(/^call_00_/), content: expect.stringMatching(/^<returncode>0<\/returncode>/) });
  });

  it("reads DeepSeek's usage once (cached_tokens and prompt_cache_hit_tokens are the same tokens) and LiteLLM's cost", () => {
    expect(calls.map((call) => call.reportedUsage)).toEqual([
      { promptTokens: 1689, cachedTokens: 1664, completionTokens: 76, cost: 8.551199999999999e-5 },
      { promptTokens: 1798, cachedTokens: 1792, completionTokens: 54, cost: 7.453599999999999e-5 },
      { promptTokens: 4445, cachedTokens: 4352, completionTokens: 681, cost: 0.000433916 },
      { promptTokens: 5491, cachedTokens: 5120, completionTokens: 59, cost: 0.00027202 },
      { promptTokens: 5635, cachedTokens: 5504, completionTokens: 58, cost: 0.000215152 },
      { promptTokens: 5747, cachedTokens: 5632, completionTokens: 66, cost: 0.000217616 },
    ]);
    const analyzed = createTranscriptAnalyzer({ tokenizer: "estimate" }).analyze(transcript!);
    expect(analyzed.totals).toMatchObject({ calls: 6, breaks: 0, reportedPromptTokens: 24805, reportedCachedTokens: 24064 });
    expect(analyzed.totals.cost?.reportedCost).toBeCloseTo(0.001298752, 9);
  });

  it("says the tool schemas are absent", () => {
    expect(transcript?.toolsKnown).toBe(false);
    expect(transcript?.meta).toMatchObject({ exitStatus: "Submitted", modelStats: { api_calls: 64 }, trajectoryFormat: "mini-swe-agent-1.1", toolSchemas: expect.stringContaining("absent") });
  });
});

describe("importMiniSweAgent on a run of the litellm_response model (Responses API messages)", () => {
  // Shapes written by mini-swe-agent's LitellmResponseModel (a whole response object per call, observations
  // as function_call_output items); no recorded run of this model was found to keep as a fixture.
  const response = (id: string, output: unknown[], input: number, cached: number, out: number) => ({ id, object: "response", status: "completed", output, usage: { input_tokens: input, input_tokens_details: { cached_tokens: cached }, output_tokens: out, total_tokens: input + out }, extra: { actions: [], cost: 0.01 } });
  const trajectory = {
    trajectory_format: "mini-swe-agent-1.1",
    info: { exit_status: "Submitted", config: { model: { model_name: "openai/gpt-5.4", model_class: "litellm_response" } } },
    messages: [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: "Fix the bug." },
      response("resp_1", [{ type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Look first." }], encrypted_content: "enc" }, { type: "function_call", call_id: "call_1", name: "bash", arguments: '{"command": "ls"}' }], 1200, 0, 40),
      { type: "function_call_output", call_id: "call_1", output: "<returncode>0</returncode>\nsrc", extra: { returncode: 0 } },
      response("resp_2", [{ type: "web_search_call", id: "ws_1", status: "completed" }, { type: "message", role: "assistant", content: [{ type: "output_text", text: "No tool call." }] }], 1300, 1152, 10),
      { type: "message", role: "user", content: [{ type: "input_text", text: "Please always provide EXACTLY ONE action." }] },
      response("resp_3", [{ type: "function_call", call_id: "call_2", name: "bash", arguments: '{"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"}' }], 1350, 1280, 30),
      { role: "exit", content: "", extra: { exit_status: "Submitted" } },
    ],
  };
  const { transcripts, problems } = importMiniSweAgent(JSON.stringify(trajectory), "run.traj.json");
  const [transcript] = transcripts;

  it("makes each response object a call with its Responses API usage and the cost beside it", () => {
    expect(problems).toEqual([]);
    expect(transcript?.calls.map((call) => call.reportedUsage)).toEqual([
      { promptTokens: 1200, cachedTokens: 0, completionTokens: 40, cost: 0.01 },
      { promptTokens: 1300, cachedTokens: 1152, completionTokens: 10, cost: 0.01 },
      { promptTokens: 1350, cachedTokens: 1280, completionTokens: 30, cost: 0.01 },
    ]);
    expect(transcript?.calls[0]?.response?.content.map((part) => part.type)).toEqual(["thinking", "tool_call"]);
  });

  it("rebuilds each request from the stored items, with the tool output and the format error in place", () => {
    expect(transcript?.calls[2]?.request.messages.map((message) => `${message.role}/${message.meta.origin}`)).toEqual(["user/user", "assistant/model", "tool/tool", "assistant/model", "user/harness"]);
    expect(transcript?.calls[2]?.request.messages[2]).toMatchObject({ role: "tool", toolCallId: "call_1", toolName: "bash" });
    expect(transcript?.notes).toEqual([expect.stringContaining("(web_search_call ×1)")]);
  });
});
