import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTranscriptAnalyzer } from "../analysis/analyze-transcript.js";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importTau2Bench } from "./import-tau2-bench.js";

/** A real τ²-bench airline results file of a custom agent that records no usage (origin in fixtures/README.md). */
const file = "fixtures/tau2-bench-results.json";
const text = readFileSync(new URL(file, import.meta.url), "utf8");

describe("importTau2Bench", () => {
  const { transcripts, problems } = importTau2Bench(text, file);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("is detected from its content", () => {
    expect(detectTranscriptFormat(file, text)).toBe("tau2-bench");
  });

  it("makes one transcript per simulation and one call per assistant turn after the fixed greeting, usage or not", () => {
    expect(problems).toEqual([]);
    expect(transcript).toMatchObject({ id: "task0-trial0", format: "tau2-bench", model: "whissle", toolsKnown: false, systemKnown: false, meta: { reward: 0, domain: "airline", terminationReason: "user_stop" } });
    expect(calls).toHaveLength(8);
    expect(calls[0]?.request.messages.map((message) => `${message.role}/${message.meta.origin}`)).toEqual(["assistant/harness", "user/user"]);
  });

  it("does not give the agent the user simulator's usage, and says no usage was recorded", () => {
    expect(calls.every((call) => call.reportedUsage === undefined)).toBe(true);
    expect(transcript?.notes).toEqual([expect.stringContaining("recorded no usage for this agent (whissle)")]);
    const analyzed = createTranscriptAnalyzer({ tokenizer: "estimate" }).analyze(transcript!);
    expect(analyzed.totals).toMatchObject({ calls: 8, breaks: 0 });
    expect(analyzed.totals.reportedPromptTokens ?? 0).toBe(0);
  });

  it("turns object arguments into argument text and names tool results after their call", () => {
    expect(calls[1]?.response?.content).toEqual([
      { type: "tool_call", id: "gem_get_reservation_details_0", name: "get_reservation_details", argumentsText: '{"reservation_id":"EHGLP3"}', arguments: { reservation_id: "EHGLP3" } },
    ]);
    expect(calls[2]?.request.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "gem_get_reservation_details_0", toolName: "get_reservation_details", isError: false, content: expect.stringContaining('"reservation_id": "EHGLP3"') });
  });

  it("reads usage and cost where the agent recorded them (τ²-bench's own LLM agent does)", () => {
    const results = JSON.parse(text) as { simulations: Array<{ messages: Array<Record<string, unknown>> }> };
    const turn = results.simulations[0]!.messages.find((message) => message.role === "assistant" && message.tool_calls !== null)!;
    Object.assign(turn, { usage: { prompt_tokens: 3470, completion_tokens: 21, prompt_tokens_details: { cached_tokens: 3456 } }, cost: 0.00701 });
    const [withUsage] = importTau2Bench(JSON.stringify(results), file).transcripts;
    expect(withUsage?.calls[1]?.reportedUsage).toEqual({ promptTokens: 3470, cachedTokens: 3456, completionTokens: 21, cost: 0.00701 });
    expect(withUsage?.notes).toBeUndefined();
  });
});
