import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { getTokenCounter, renderModelRequest } from "../tokens/index.js";
import { importTranscriptFiles, loadOpenAIToolsFile } from "./importers/index.js";
import { inspectFiles } from "./inspect-files.js";

// Real recorded runs (../shared/corpus, see its README); absent outside the project's machines and CI.
const corpus = process.env.CTXKIT_CORPUS ?? fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
const sweGemini = `${corpus}/swe-gemini`;
const tauBench = `${corpus}/tau-bench`;
const fallbackNote = /differed from a full render/;

interface RecordedMessage {
  role: string;
  extra?: { response?: { usage?: { prompt_tokens_details?: { cached_tokens?: number } } } };
}

describe.skipIf(!existsSync(sweGemini))("inspect on the swe-gemini corpus", () => {
  const names = ["astropy__astropy-12907", "django__django-11095", "sympy__sympy-15976"];
  const paths = names.map((name) => `${sweGemini}/${name}.traj.json`);

  it("reports per run the recorded cached tokens and a computed reusable-prefix share", async () => {
    const report = await inspectFiles(paths);
    expect(report.problems).toEqual([]);
    expect(report.transcripts.map((transcript) => transcript.id)).toEqual(names);
    for (const [index, transcript] of report.transcripts.entries()) {
      const recorded = (JSON.parse(readFileSync(paths[index]!, "utf8")) as { messages: RecordedMessage[] }).messages
        .filter((message) => message.role === "assistant")
        .reduce((total, message) => total + (message.extra?.response?.usage?.prompt_tokens_details?.cached_tokens ?? 0), 0);
      expect(transcript.totals.reportedCachedTokens).toBe(recorded);
      expect(transcript.totals.reusableShare).toBeGreaterThan(0);
      expect(transcript.totals.reusableShare).toBeLessThanOrEqual(1);
      expect(transcript.totals.cost).toMatchObject({ pricing: "gemini-3-pro-preview", basis: "reported" });
      expect(transcript.findings.map((finding) => finding.code)).toContain("tool_output_in_user_messages");
      expect(transcript.notes.join(" ")).not.toMatch(fallbackNote);
    }
  });
});

describe.skipIf(!existsSync(tauBench))("inspect on the τ-bench airline dialogues", () => {
  it("renders every dialogue with its tools and counts exact Qwen3 tokens", async () => {
    const file = `${tauBench}/trajectories/gpt-4o-airline.json`;
    const tools = loadOpenAIToolsFile(`${tauBench}/airline/tools.json`);
    const report = await inspectFiles([file], { tools });
    expect(report.problems).toEqual([]);
    expect(report.transcripts).toHaveLength(200);
    expect(report.totals.calls).toBe(2454);
    // Each transcript's last call is checked against a full template render; none needed the fallback.
    expect(report.transcripts.filter((transcript) => transcript.notes.some((note) => fallbackNote.test(note)))).toEqual([]);
    const { transcripts } = await importTranscriptFiles([file], { tools });
    const counter = getTokenCounter("qwen3");
    for (const [transcript, call] of [[0, 0], [7, 5], [199, 3]] as const) {
      const request = transcripts[transcript]!.calls[call]!.request;
      expect(report.transcripts[transcript]!.calls[call]!.promptTokens).toBe(counter.count(renderModelRequest(request)));
    }
    expect(report.transcripts[0]!.calls[0]!.composition.tools).toBeGreaterThan(2000);
  }, 60_000);
});
