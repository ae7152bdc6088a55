import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import { CtxkitError } from "../../types/index.js";
import { emptyCompressionStats } from "./compression-stats.js";
import { createDeterministicSummarizer } from "./deterministic-summarizer.js";
import { createModelSummarizer } from "./model-summarizer.js";
import { summarizeSafely } from "./summarize-safely.js";
import type { SummaryInput } from "./summarizer.js";

const page = [
  "Home | News | Sign in",
  "Read more at https://ssi.inc/announcement",
  "Ilya Sutskever left OpenAI in May 2024 and founded Safe Superintelligence in June 2024.",
  ...Array.from({ length: 40 }, (_, index) => `Filler paragraph ${index} about nothing in particular, written to fill the page.`),
  "Ilya Sutskever left OpenAI in May 2024 and founded Safe Superintelligence in June 2024.",
].join("\n");

const input: SummaryInput = {
  purpose: "tool-result",
  sources: [{ label: 'fetch {"url":"https://example.com/a"}', kind: "tool", text: page, citation: "https://example.com/a" }],
  task: "Where does Ilya Sutskever work now?",
  maxTokens: 60,
};

describe("the deterministic summariser", () => {
  it("keeps the task's facts once, within the budget, and is reproducible", async () => {
    const summarizer = createDeterministicSummarizer();
    const summary = await summarizer.summarize(input);
    expect(summary).toContain("Ilya Sutskever left OpenAI in May 2024");
    expect(summary.split("Ilya Sutskever left").length).toBe(2);
    expect(summary.length).toBeLessThanOrEqual(60 * 4);
    expect(await summarizer.summarize(input)).toBe(summary);
  });

  it("cites every kept line's source in citation mode and skips what is already known", async () => {
    const summarizer = createDeterministicSummarizer();
    expect(await summarizer.summarize({ ...input, citations: true })).toContain("May 2024 and founded Safe Superintelligence in June 2024. [source: https://example.com/a]");
    const known = "Ilya Sutskever left OpenAI in May 2024 and founded Safe Superintelligence in June 2024.";
    expect(await summarizer.summarize({ ...input, known })).not.toContain("founded Safe");
  });
});

describe("the model summariser", () => {
  it("asks the model with the task and query and appends identifiers the answer dropped", async () => {
    const provider = createScriptedProvider({ turns: ["Sutskever left OpenAI in May 2024."] });
    const summary = await createModelSummarizer(provider).summarize({ ...input, query: "fetch https://example.com/a" });
    const prompt = provider.requests[0]!.messages[0]!.content as string;
    expect(prompt).toContain("The agent's task:\nWhere does Ilya Sutskever work now?");
    expect(prompt).toContain("Given the search query: fetch https://example.com/a");
    expect(summary).toBe("Sutskever left OpenAI in May 2024.\nIdentifiers kept: https://ssi.inc/announcement");
  });

  it("throws summarizer_failed on a provider error, and summarizeSafely falls back to the deterministic summary", async () => {
    const provider = createScriptedProvider({ turns: [{ error: new CtxkitError("provider_http_error", "503 overloaded") }, { error: new CtxkitError("provider_http_error", "503 overloaded") }] });
    const summarizer = createModelSummarizer(provider);
    await expect(summarizer.summarize(input)).rejects.toMatchObject({ code: "summarizer_failed" });
    const stats = emptyCompressionStats();
    const summary = await summarizeSafely(summarizer, input, stats);
    expect(summary).toBe(await createDeterministicSummarizer().summarize(input));
    expect(stats.summarizerFailures).toBe(1);
  });

  it("keeps the error lines of failed calls whatever the model wrote", async () => {
    const provider = createScriptedProvider({ turns: ["The command did not work."] });
    const failed: SummaryInput = { purpose: "tool-result", sources: [{ label: "bash", kind: "tool", text: "Traceback …\nModuleNotFoundError: No module named 'numpy'", isError: true }], maxTokens: 100 };
    expect(await summarizeSafely(createModelSummarizer(provider), failed, emptyCompressionStats())).toContain("ModuleNotFoundError: No module named 'numpy'");
  });
});
