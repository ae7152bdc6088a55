import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importTau2Bench } from "./import-tau2-bench.js";

const file = "fixtures/tau2-bench-results.json";
const text = readFileSync(new URL(file, import.meta.url), "utf8");

describe("importTau2Bench", () => {
  const { transcripts, problems } = importTau2Bench(text, file);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("is detected from its content", () => {
    expect(detectTranscriptFormat(file, text)).toBe("tau2-bench");
  });

  it("makes one transcript per simulation and one call per assistant message, with its usage and cost", () => {
    expect(problems).toEqual([]);
    expect(transcript).toMatchObject({ id: "task0-trial0", format: "tau2-bench", model: "gpt-4.1-2025-04-14", toolsKnown: false, systemKnown: false, meta: { reward: 1, domain: "airline" } });
    expect(calls).toHaveLength(2);
    expect(calls.map((call) => call.reportedUsage)).toEqual([
      { promptTokens: 3470, cachedTokens: 0, completionTokens: 21, cost: 0.00701 },
      { promptTokens: 3582, cachedTokens: 3456, completionTokens: 30, cost: 0.00829 },
    ]);
  });

  it("turns object arguments into argument text and names tool results after their call", () => {
    expect(calls[0]?.response?.content[0]).toMatchObject({ type: "tool_call", id: "call_Qx7", name: "get_reservation_details", argumentsText: '{"reservation_id":"EHGLP3"}' });
    expect(calls[1]?.request.messages.map((message) => `${message.role}/${message.meta.origin}`)).toEqual(["assistant/harness", "user/user", "assistant/model", "tool/tool"]);
    expect(calls[1]?.request.messages[3]).toMatchObject({ role: "tool", toolName: "get_reservation_details", isError: false });
  });
});
