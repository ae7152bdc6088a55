import { describe, expect, it } from "vitest";
import { getTokenCounter, renderModelRequest } from "../../tokens/index.js";
import { loadPricingSelection } from "../../session/load-pricing.js";
import { commonPrefixTokens } from "../../tokens/index.js";
import { appendOnlyRequests, assistant, request, tool, toolCall, toolResult, transcriptOf, user } from "../test-support/transcript-builder.js";
import { createTranscriptAnalyzer } from "./analyze-transcript.js";

const qwen3 = getTokenCounter("qwen3");
const exactTokens = (requestValue: Parameters<typeof renderModelRequest>[0]) => qwen3.encode!(renderModelRequest(requestValue));

describe("analyzeTranscript (qwen3, exact)", () => {
  const conversation = [
    user("What is in logs/server.log?"),
    assistant("", [toolCall("c1", "read_file", { path: "logs/server.log" })]),
    toolResult("c1", "read_file", "2025-11-30 ERROR disk full"),
    assistant("The disk is full."),
    user("Thanks. How do I free space?"),
    assistant("Delete old logs."),
  ];
  const requests = appendOnlyRequests("You are a careful assistant.", conversation, [tool("read_file")]);
  const analyzed = createTranscriptAnalyzer().analyze(transcriptOf(requests));

  it("counts every prompt exactly as Qwen3's template and tokenizer do", () => {
    expect(analyzed.calls.map((call) => call.promptTokens)).toEqual(requests.map((value) => exactTokens(value).length));
    expect(analyzed.calls.map((call) => call.promptTokens)).toEqual([151, 199, 222]);
  });

  it("finds the reusable prefix: the previous prompt whole, generation prompt included, for a pure append", () => {
    const expected = requests.map((value, index) => (index === 0 ? 0 : commonPrefixTokens(exactTokens(requests[index - 1]!), exactTokens(value))));
    expect(analyzed.calls.map((call) => call.reusablePrefixTokens)).toEqual(expected);
    expect(analyzed.calls.map((call) => call.reusablePrefixTokens)).toEqual([0, 151, 199]);
    expect(analyzed.calls.map((call) => call.newTokens)).toEqual([151, 48, 23]);
    expect(analyzed.calls.every((call) => call.breaks.length === 0)).toBe(true);
  });

  it("splits the prompt into its parts, summing to the prompt tokens", () => {
    for (const call of analyzed.calls) expect(Object.values(call.composition).reduce((total, value) => total + value, 0)).toBe(call.promptTokens);
    expect(analyzed.calls[1]!.composition).toMatchObject({ system: expect.any(Number), tools: expect.any(Number), toolResults: expect.any(Number) });
    expect(analyzed.calls[1]!.composition.toolResults).toBeGreaterThan(0);
    expect(analyzed.calls[0]!.composition.toolResults).toBe(0);
  });

  it("totals a pure append-only run at its append-only limit, with no reported usage", () => {
    expect(analyzed.totals).toMatchObject({ calls: 3, promptTokens: 572, reusablePrefixTokens: 350, reportedCachedTokens: null, breaks: 0, cost: null });
    expect(analyzed.totals.appendOnlyLimitTokens).toBe(350);
    expect(analyzed.findings).toEqual([]);
  });

  it("names a sliding window as a message-layer break and a deleted-history finding", () => {
    const messages = Array.from({ length: 8 }, (_, index) => (index % 2 === 0 ? user(`question ${index}`) : assistant(`answer ${index}`)));
    const window = (end: number) => messages.slice(Math.max(0, end - 4), end);
    const sliding = [2, 4, 6, 8].map((end) => request("You are terse.", window(end)));
    const result = createTranscriptAnalyzer().analyze(transcriptOf(sliding));
    expect(result.calls[2]!.breaks).toEqual([expect.objectContaining({ layer: "message", index: 0, cause: "messages_removed", declared: false })]);
    expect(result.calls[2]!.breaks[0]!.lostTokens).toBeGreaterThan(0);
    expect(result.calls[2]!.reusablePrefixTokens).toBe(commonPrefixTokens(exactTokens(sliding[1]!), exactTokens(sliding[2]!)));
    expect(result.findings.map((finding) => finding.code)).toEqual(["deleted_history"]);
    expect(result.findings[0]).toMatchObject({ severity: "high", calls: [2, 3] });
  });

  it("marks a break the transcript declares (a compaction) as declared, with no finding", () => {
    const first = request("s", [user("long question"), assistant("long answer"), user("next")]);
    const second = request("s", [user("Summary: asked and answered."), user("next")]);
    const result = createTranscriptAnalyzer().analyze(transcriptOf([first, second], { calls: [{}, { declaredBreak: { reason: "compaction" } }] }));
    expect(result.calls[1]!.breaks).toEqual([expect.objectContaining({ declared: true, reason: "compaction", cause: "history_replaced" })]);
    expect(result.totals.undeclaredBreaks).toBe(0);
    expect(result.findings).toEqual([]);
  });

  it("prices a run without usage with the cache rule applied to the computed reusable prefix", () => {
    const long = user("x ".repeat(3000));
    const result = createTranscriptAnalyzer({ pricing: loadPricingSelection("gpt-4o") }).analyze(
      transcriptOf([request("s", [long]), request("s", [long, assistant("ok"), user("more")])]),
    );
    const reusable = result.calls[1]!.reusablePrefixTokens;
    expect(result.totals.cost).toMatchObject({ pricing: "gpt-4o", cacheRule: "openai-automatic", basis: "computed", cachedTokens: Math.floor(reusable / 128) * 128 });
  });
});

describe("analyzeTranscript (approximate tokenizers)", () => {
  it.each(["o200k", "estimate"] as const)("with %s, reuses the previous prompt without its tail on a pure append", (tokenizer) => {
    const status = (text: string) => user(text, "harness");
    const first = request("You are helpful.", [user("hello")], [tool("search")], status("status 1"));
    const second = request("You are helpful.", [...first.messages, assistant("hi"), user("more")], [tool("search")], status("status 2"));
    const result = createTranscriptAnalyzer({ tokenizer }).analyze(transcriptOf([first, second]));
    const [one, two] = result.calls;
    const tailTokens = one!.composition.harness;
    expect(tailTokens).toBeGreaterThan(0);
    expect(two!.reusablePrefixTokens).toBe(one!.promptTokens - tailTokens);
    expect(two!.breaks).toEqual([]);
    expect(result.tokenizer).toMatchObject({ name: tokenizer, exact: false });
  });
});
