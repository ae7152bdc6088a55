import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTranscriptAnalyzer } from "../analysis/analyze-transcript.js";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importAiderLlmHistory } from "./import-aider-llm-history.js";

/** A real aider history file (origin in fixtures/README.md): two /ask requests, then a switch to code mode. */
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
    expect(calls).toHaveLength(3);
    expect(calls[0]?.request.system.staticText).toBe(
      "Act as an expert code analyst.\nAnswer questions about the supplied code.\nAlways reply to the user in the same language they are using.\n\nDescribe code changes however you like. Don't use SEARCH/REPLACE blocks!",
    );
    expect(calls.map((call) => call.request.messages.length)).toEqual([5, 7, 9]);
    expect(calls[0]?.request.messages[4]).toMatchObject({ role: "user", content: expect.stringMatching(/^This project is a super simple random friendly name generator/) });
    expect(calls[0]?.response?.content).toEqual([{ type: "text", text: expect.stringMatching(/^I notice that while the project structure is set up[\s\S]*description = 'A super simple random friendly name generator'\n```/) }]);
    expect(calls[2]?.request.system.staticText).toMatch(/^Act as an expert software developer\.\nAlways use best practices when coding\./);
    expect(calls[2]?.request.messages.at(-1)).toMatchObject({ role: "user", content: expect.any(String) });
  });

  it("keeps message ids along the repeated prefix, the replies included", () => {
    expect(calls[1]?.request.messages.slice(0, 5)).toEqual(calls[0]?.request.messages);
    expect(calls[1]?.request.messages[1]).toBe(calls[0]?.request.messages[1]);
    expect(calls[1]?.request.messages[5]).toBe(calls[0]?.response);
    expect(calls[2]?.request.messages[7]).toBe(calls[1]?.response);
  });

  it("shows the reuse of the /ask requests and the break when aider switched to its code prompt", () => {
    const analyzed = createTranscriptAnalyzer({ tokenizer: "estimate" }).analyze(transcript!);
    expect(analyzed.calls[1]?.breaks).toEqual([]);
    expect(analyzed.calls[1]?.reusablePrefixTokens).toBeGreaterThan(0);
    expect(analyzed.calls[2]?.breaks).toMatchObject([{ layer: "system_static", cause: "system_changed", firstDifferingByte: 17 }]);
    expect(analyzed.totals.breaks).toBe(1);
    expect(analyzed.notes.join("\n")).toContain("no usage and no model");
  });
});

describe("importAiderLlmHistory with --cache-prompts (content printed as parts)", () => {
  it("keeps the text of a part and drops aider's printing of its type and cache_control", () => {
    // As aider 0.86.2 wrote it on 2026-05-15 (savabs/AWOS_coding_agent- .aider.llm.history, a Claude run with prompt caching).
    const history = [
      "TO LLM 2026-05-15T19:06:31",
      "-------",
      "SYSTEM Act as an expert software developer.",
      "-------",
      "USER I switched to a new code base. Please don't consider the above files or try to edit them any longer.",
      "-------",
      "ASSISTANT type: text",
      "ASSISTANT text: Ok.",
      "ASSISTANT cache_control: {'type': 'ephemeral'}",
      "-------",
      "USER which aider",
      "LLM RESPONSE 2026-05-15T19:06:34",
      "",
    ].join("\n");
    const [transcript] = importAiderLlmHistory(history, "h.llm.history").transcripts;
    expect(transcript?.calls[0]?.request.messages.map((message) => message.content)).toEqual([
      "I switched to a new code base. Please don't consider the above files or try to edit them any longer.",
      [{ type: "text", text: "Ok." }],
      "which aider",
    ]);
    expect(transcript?.calls[0]?.response?.content).toEqual([]);
  });
});
