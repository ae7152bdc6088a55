import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { toolCallsOf } from "../../types/index.js";
import { importMiniSweAgent } from "./import-mini-swe-agent.js";
import { importTauBench } from "./import-tau-bench.js";

// Real recorded runs (../shared/corpus, see its README); absent outside the project's machines and CI.
const corpus = process.env.CTXKIT_CORPUS ?? fileURLToPath(new URL("../../../../shared/corpus/", import.meta.url));
const sweGemini = `${corpus}/swe-gemini`;
const tauBenchFile = `${corpus}/tau-bench/trajectories/gpt-4o-airline.json`;

interface RecordedMessage {
  role: string;
  extra?: { cost?: number; response?: { usage?: { cost?: number; prompt_tokens_details?: { cached_tokens?: number } } } };
}

describe.skipIf(!existsSync(sweGemini))("mini-swe-agent corpus (swe-gemini)", () => {
  // Two with OpenRouter usage (cost inside usage), one with Portkey usage (cost next to the response).
  it.each(["astropy__astropy-12907", "django__django-11095", "django__django-11299"])("imports %s with the recorded usage", (name) => {
    const path = `${sweGemini}/${name}.traj.json`;
    const text = readFileSync(path, "utf8");
    const recorded = (JSON.parse(text) as { messages: RecordedMessage[] }).messages.filter((message) => message.role === "assistant");
    const { transcripts, problems } = importMiniSweAgent(text, path);
    expect(problems).toEqual([]);
    const calls = transcripts[0]?.calls ?? [];
    expect(calls).toHaveLength(recorded.length);
    const sum = (values: (number | undefined)[]) => values.reduce<number>((total, value) => total + (value ?? 0), 0);
    expect(sum(calls.map((call) => call.reportedUsage?.cachedTokens))).toBe(
      sum(recorded.map((message) => message.extra?.response?.usage?.prompt_tokens_details?.cached_tokens)),
    );
    expect(sum(calls.map((call) => call.reportedUsage?.cost))).toBeCloseTo(
      sum(recorded.map((message) => message.extra?.response?.usage?.cost ?? message.extra?.cost)),
      10,
    );
    expect(calls.every((call) => call.reportedUsage?.promptTokens !== undefined)).toBe(true);
  });
});

describe.skipIf(!existsSync(tauBenchFile))("τ-bench corpus (gpt-4o-airline)", () => {
  it("imports all 200 dialogues with their 1,164 tool calls", () => {
    const { transcripts, problems } = importTauBench(readFileSync(tauBenchFile, "utf8"), tauBenchFile);
    expect(problems).toEqual([]);
    expect(transcripts).toHaveLength(200);
    let toolCalls = 0;
    for (const transcript of transcripts) {
      const last = transcript.calls.at(-1);
      const finalConversation = last === undefined ? [] : [...last.request.messages, ...(last.response ? [last.response] : [])];
      for (const message of finalConversation) if (message.role === "assistant") toolCalls += toolCallsOf(message).length;
    }
    expect(toolCalls).toBe(1164);
    expect(transcripts.reduce((total, transcript) => total + transcript.calls.length, 0)).toBe(2454);
  });
});
