import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

/** The importer fixtures (origins in src/inspect/importers/fixtures/README.md), read through the CLI. */
const fixtures = resolve("src/inspect/importers/fixtures");
const inspect = (files: string[], extra: string[] = []) =>
  runCli(["inspect", ...files.map((name) => resolve(fixtures, name)), "--tokenizer", "estimate", "--no-color", ...extra], { cwd: fixtures, timeoutMs: 60_000 });

describe("ctxkit inspect on the recorded formats", () => {
  it("detects every new format without --format", async () => {
    const run = await inspect(["swe-agent-gpt-4o.traj", "openhands-claude-3-5-sonnet.json", "gemini-cli-session.json", "aider.llm.history", "tau2-bench-results.json", "mini-swe-agent-v2.traj.json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    for (const format of ["swe-agent", "openhands", "gemini-cli", "aider", "tau2-bench", "mini-swe-agent"]) expect(run.stdout).toContain(` — ${format}, `);
    expect(run.stdout).toContain("SWE-agent records usage only for the whole run: 7141 prompt tokens sent");
    expect(run.stdout).toContain("no usage and no model");
  });

  it("reads an OpenHands V1 conversation folder as one run with its recorded usage", async () => {
    const run = await inspect(["openhands-v1-conversation/cd94562403b9487ebdd4018e3f531dfd"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("cd94562403b9487ebdd4018e3f531dfd — openhands, openai/gpt-4o-mini, 3 calls");
    expect(run.stdout).toContain("provider reported 65.2% cached (7,552 of 11,583)");
  });

  it("shows 1-hour cache writes and fallback prices", async () => {
    const run = await inspect(["claude-code-opus-4-6-1h-writes.jsonl", "codex-0142-repeated-token-count.jsonl"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("cost (claude-opus-4-6, reported usage):");
    expect(run.stdout).toContain("(191 of 191 tokens at the 1-hour rate)");
    expect(run.stdout).toContain("fallback prices: gpt-5.5 → gpt-5");
    expect(run.stdout).toContain("No catalog prices for gpt-5.5");
  });

  it("puts which prices were used in --json", async () => {
    const run = await inspect(["codex-0142-repeated-token-count.jsonl"], ["--json"]);
    const report = JSON.parse(run.stdout) as { transcripts: Array<{ totals: { cost: { prices: unknown[] }; zeroUsageCalls: number } }> };
    expect(report.transcripts[0]!.totals.cost.prices).toEqual([{ model: "gpt-5.5", pricing: "gpt-5", calls: 2, fallback: true }]);
    expect(report.transcripts[0]!.totals.zeroUsageCalls).toBe(0);
  });
});
