import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTranscriptAnalyzer } from "../analysis/analyze-transcript.js";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importAiderLlmHistory } from "./import-aider-llm-history.js";

const file = "fixtures/aider.llm.history";
const text = readFileSync(new URL(file, import.meta.url), "utf8");

describe("importAiderLlmHistory", () => {
  const { transcripts, problems } = importAiderLlmHistory(text, file);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("is detected from its content", () => {
    expect(detectTranscriptFormat(file, text)).toBe("aider");
  });

  it("reads every request in full, with the reply that followed it", () => {
    expect(problems).toEqual([]);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.request.system.staticText).toMatch(/^Act as an expert software developer\.\nAlways use best practices/);
    expect(calls[1]?.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(calls[0]?.request.messages[0]).toMatchObject({ role: "user", content: expect.stringContaining("weather.py\n```\ndef to_celsius(kelvin):\n    return kelvin\n```") });
    expect(calls[0]?.response?.content).toEqual([{ type: "text", text: expect.stringContaining("    return kelvin - 273.15\n>>>>>>> REPLACE") }]);
  });

  it("keeps message ids along the repeated prefix, so the second request extends the first", () => {
    expect(calls[1]?.request.messages[0]).toBe(calls[0]?.request.messages[0]);
    const analyzed = createTranscriptAnalyzer({ tokenizer: "estimate" }).analyze(transcript!);
    expect(analyzed.totals.breaks).toBe(0);
    expect(analyzed.calls[1]?.reusablePrefixTokens).toBeGreaterThan(0);
    expect(analyzed.notes.join("\n")).toContain("no usage and no model");
  });
});
