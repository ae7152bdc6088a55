import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { findModelPricing } from "../../tokens/pricing.js";
import { importClaudeCode } from "../importers/import-claude-code.js";
import { createTranscriptAnalyzer } from "./analyze-transcript.js";

// The repository's Claude Code fixture (see importers/fixtures/README.md): three main-thread calls,
// each reading what the one before it wrote.
const original = readFileSync(new URL("../importers/fixtures/claude-code-session.jsonl", import.meta.url), "utf8");

/**
 * The same session with a pause: the person answers 7 minutes after the second call instead of
 * 4 seconds (every timestamp from line 12 on moves by 7 minutes), and the third call is billed as
 * Anthropic bills a call after its 5-minute cache expired — nothing read, the prompt written again.
 */
function withPause(oneHourWrites: boolean): string {
  const shift = (stamp: string) => new Date(Date.parse(stamp) + 7 * 60_000).toISOString();
  return original
    .split("\n")
    .map((line, index) => {
      if (line.trim() === "" || index < 11) return oneHourWrites ? line.replace('"ephemeral_5m_input_tokens":4200,"ephemeral_1h_input_tokens":0', '"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":4200') : line;
      let shifted = line.replace(/"timestamp":"([^"]+)"/, (_match, stamp: string) => `"timestamp":"${shift(stamp)}"`);
      if (shifted.includes('"id":"msg_03GhI"')) shifted = shifted.replace('"cache_creation_input_tokens":180,"cache_read_input_tokens":15647', '"cache_creation_input_tokens":15827,"cache_read_input_tokens":0');
      return shifted;
    })
    .join("\n");
}

function analyze(text: string) {
  const { transcripts } = importClaudeCode(text, "session.jsonl");
  return createTranscriptAnalyzer({ tokenizer: "estimate" }).analyze(transcripts[0]!);
}

describe("cache misses in a recorded transcript", () => {
  it("finds none where every call read what the previous one left", () => {
    const analyzed = analyze(original);
    expect(analyzed.calls.filter((call) => call.miss !== undefined)).toEqual([]);
    expect(analyzed.findings.map((finding) => finding.code)).not.toContain("cache_misses");
  });

  it("names an expiry when the gap exceeds the 5-minute lifetime, with the dollars re-billed", () => {
    const analyzed = analyze(withPause(false));
    const miss = analyzed.calls[2]!.miss;
    expect(miss?.cause).toMatchObject({ kind: "cache_expired", lifetimeMs: 5 * 60_000 });
    if (miss?.cause.kind !== "cache_expired") return;
    expect(miss.cause.idleMs).toBeGreaterThan(7 * 60_000);
    // What the previous prompt left reusable: its 15 555 prompt tokens as Anthropic counted them.
    expect(miss.missedTokens).toBe(5 + 350 + 15_200);
    const pricing = findModelPricing("claude-sonnet-4-5-20250929")!;
    // The call wrote them to the cache again: billed at the 5-minute write price, not as reads.
    expect(miss.rebilledUsd).toBeCloseTo(((pricing.cacheWrite! - pricing.cacheRead) * 15_555) / 1_000_000, 12);
    expect(miss.summary).toMatch(/^cache expired: 7m \d+s since the previous call, past the 5m lifetime/);
    const finding = analyzed.findings.find((item) => item.code === "cache_misses");
    expect(finding?.calls).toEqual([2]);
    expect(finding?.message).toContain("--cache-ttl 1h");
  });

  it("does not call it an expiry when the session writes 1-hour entries", () => {
    const analyzed = analyze(withPause(true));
    expect(analyzed.calls[2]!.miss?.cause.kind).toBe("provider_miss");
  });
});
