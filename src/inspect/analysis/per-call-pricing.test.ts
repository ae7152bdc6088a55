import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importClaudeCode } from "../importers/import-claude-code.js";
import { importCodexRollout } from "../importers/import-codex-rollout.js";
import type { ImportedTranscript } from "../imported-transcript.js";
import { createTranscriptAnalyzer } from "./analyze-transcript.js";

/** Real recordings; origins in ../importers/fixtures/README.md. */
const fixture = (name: string) => {
  const file = `../importers/fixtures/${name}`;
  return { text: readFileSync(new URL(file, import.meta.url), "utf8"), file };
};
const analyzer = createTranscriptAnalyzer({ tokenizer: "estimate" });
const perMillion = (tokens: number, price: number) => (tokens * price) / 1_000_000;

function claudeOpus46(): ImportedTranscript {
  const { text, file } = fixture("claude-code-opus-4-6-1h-writes.jsonl");
  return importClaudeCode(text, file).transcripts[0]!;
}

describe("pricing Claude Code's 1-hour cache writes (Claude Code 2.1.34, claude-opus-4-6)", () => {
  const transcript = claudeOpus46();
  const cost = analyzer.analyze(transcript).totals.cost!;

  it("reads the 1-hour part of the writes from usage.cache_creation", () => {
    expect(transcript.calls[0]?.reportedUsage).toEqual({ promptTokens: 72343, cachedTokens: 72151, cacheWriteTokens: 191, cacheWrite1hTokens: 191, completionTokens: 25 });
  });

  it("prices the call at claude-opus-4-6's own prices, its writes at the 1-hour rate (2× input)", () => {
    expect(cost).toMatchObject({ pricing: "claude-opus-4-6", basis: "reported", cacheWrite1hTokens: 191, unpricedCalls: 0 });
    expect(cost.prices).toEqual([{ model: "claude-opus-4-6", pricing: "claude-opus-4-6", calls: 1, fallback: false }]);
    expect(cost.cacheWrite).toBeCloseTo(perMillion(191, 10), 12);
    expect(cost.total).toBeCloseTo(perMillion(1, 5) + perMillion(72151, 0.5) + perMillion(191, 10) + perMillion(25, 25), 12);
  });

  it("still prices writes without a reported lifetime at the 5-minute rate", () => {
    const unsplit = claudeOpus46();
    delete unsplit.calls[0]!.reportedUsage!.cacheWrite1hTokens;
    expect(analyzer.analyze(unsplit).totals.cost!.cacheWrite).toBeCloseTo(perMillion(191, 6.25), 12);
  });

  it("prices each call by its own model when a run switches models", () => {
    const switched = claudeOpus46();
    const second = { ...switched.calls[0]!, model: "claude-haiku-4-5-20251001" };
    switched.calls.push(second);
    const analyzed = analyzer.analyze(switched);
    expect(analyzed.totals.cost!.prices).toEqual([
      { model: "claude-opus-4-6", pricing: "claude-opus-4-6", calls: 1, fallback: false },
      { model: "claude-haiku-4-5-20251001", pricing: "claude-haiku-4-5", calls: 1, fallback: false },
    ]);
    const haiku = perMillion(1, 1) + perMillion(72151, 0.1) + perMillion(191, 2) + perMillion(25, 5);
    expect(analyzed.totals.cost!.total).toBeCloseTo(cost.total + haiku, 12);
    expect(analyzed.notes.join("\n")).toContain("each call is priced by its own model");
  });

  it("notes all-zero usage reports and ignores them", () => {
    const zeros = claudeOpus46();
    zeros.calls[0]!.reportedUsage = { promptTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 0 };
    const analyzed = analyzer.analyze(zeros);
    expect(analyzed.totals.zeroUsageCalls).toBe(1);
    expect(analyzed.calls[0]?.reportedPromptTokens).toBeNull();
    expect(analyzed.totals.cost!.basis).toBe("computed");
    expect(analyzed.notes.join("\n")).toContain("all-zero usage on 1 of 1 calls");
  });
});

describe("saying when a price is another model's (Codex 0.142, gpt-5.5)", () => {
  const { text, file } = fixture("codex-0142-repeated-token-count.jsonl");
  const analyzed = analyzer.analyze(importCodexRollout(text, file).transcripts[0]!);

  it("marks the longest-prefix match as a fallback and notes it", () => {
    expect(analyzed.totals.cost!.prices).toEqual([{ model: "gpt-5.5", pricing: "gpt-5", calls: 2, fallback: true }]);
    expect(analyzed.notes.join("\n")).toContain("No catalog prices for gpt-5.5: its 2 calls were priced as gpt-5");
  });
});
