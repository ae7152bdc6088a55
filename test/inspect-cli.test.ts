import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const system = { role: "system", content: "You are a weather assistant. Current time: 10:30." };
const ask = { role: "user", content: "Weather in Lisbon?" };
const answer = { role: "assistant", content: "Let me check." };
const more = { role: "user", content: "And Porto?" };
const usage = (prompt: number, cached: number) => ({ usage: { prompt_tokens: prompt, completion_tokens: 5, prompt_tokens_details: { cached_tokens: cached } } });

/** Two good request records (the second with a changed timestamp) and a truncated third line. */
function openAiLog(): string {
  const first = { request: { model: "gpt-4o-mini", messages: [system, ask] }, response: usage(40, 0) };
  const second = { request: { model: "gpt-4o-mini", messages: [{ ...system, content: system.content.replace("10:30", "10:31") }, ask, answer, more] }, response: usage(60, 0) };
  return `${JSON.stringify(first)}\n${JSON.stringify(second)}\n{"request": {"model": "gpt-4o-mini", "messa`;
}

describe("ctxkit inspect", () => {
  it("prints {calls, totals, findings} as JSON and reports a truncated line by file and line", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-inspect-"));
    await writeFile(join(cwd, "requests.jsonl"), openAiLog());
    const run = await runCli(["inspect", "requests.jsonl", "--json", "--tokenizer", "o200k"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`${join(cwd, "requests.jsonl").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3: truncated line`));
    const report = JSON.parse(run.stdout) as {
      calls: Array<Record<string, unknown>>;
      transcripts: Array<{ calls: unknown[]; totals: Record<string, unknown>; findings: Array<{ code: string }> }>;
      totals: Record<string, unknown>;
      findings: Array<{ code: string; transcript: string; calls: number[] }>;
      problems: Array<{ line: number }>;
    };
    expect(report.calls).toHaveLength(2);
    expect(Object.keys(report.calls[1]!)).toEqual(
      expect.arrayContaining(["index", "promptTokens", "reusablePrefixTokens", "reportedCachedTokens", "newTokens", "composition", "breaks"]),
    );
    expect(report.calls[1]).toMatchObject({ index: 1, reportedCachedTokens: 0, breaks: [{ layer: "system_static", cause: "system_changed", declared: false }] });
    expect(report.transcripts[0]!.calls).toEqual(report.calls);
    expect(report.totals).toMatchObject({ transcripts: 1, calls: 2, reportedCachedTokens: 0 });
    expect(report.findings).toEqual([expect.objectContaining({ code: "dynamic_system_prompt", transcript: "requests", calls: [1] })]);
    expect(report.problems).toEqual([expect.objectContaining({ line: 3 })]);
  });

  it("prints a table per call with totals, cost under the chosen pricing and findings", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-inspect-"));
    await writeFile(join(cwd, "requests.jsonl"), openAiLog());
    await writeFile(join(cwd, "prices.json"), JSON.stringify({ input: 1, cacheRead: 0.1, output: 2, cacheRule: "openai-automatic" }));
    const run = await runCli(["inspect", "requests.jsonl", "--pricing", "prices.json", "--tokenizer", "estimate"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/call\s+prompt\s+reusable\s+reported cached\s+new\s+composition\s+breaks/);
    expect(run.stdout).toMatch(/system_static system_changed \(undeclared\)/);
    expect(run.stdout).toMatch(/cost \(.*prices\.json, reported usage\): \$\d+\.\d{4}/);
    expect(run.stdout).toMatch(/\[high\] dynamic_system_prompt: The system prompt changed/);
  });

  it("reads a --tools and a --pricing file saved with a byte-order mark (Windows PowerShell 5.1's utf8)", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-inspect-"));
    await writeFile(join(cwd, "requests.jsonl"), openAiLog());
    await writeFile(join(cwd, "prices.json"), `\uFEFF${JSON.stringify({ input: 1, cacheRead: 0.1, output: 2, cacheRule: "openai-automatic" })}`);
    const tools = [{ type: "function", function: { name: "get_weather", description: "Weather for a city.", parameters: { type: "object", properties: { city: { type: "string" } } } } }];
    await writeFile(join(cwd, "tools.json"), `\uFEFF${JSON.stringify(tools)}`);
    const run = await runCli(["inspect", "requests.jsonl", "--pricing", "prices.json", "--tools", "tools.json", "--tokenizer", "estimate"], { cwd });
    expect(run.stderr).not.toMatch(/tools file|pricing file/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/cost \(.*prices\.json, reported usage\): \$\d+\.\d{4}/);
  });

  it("exits 1 naming the file when nothing can be read, and 2 without files", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-inspect-"));
    await writeFile(join(cwd, "notes.txt"), "just some text\n");
    const unreadable = await runCli(["inspect", "notes.txt", "missing.jsonl"], { cwd });
    expect(unreadable.code).toBe(1);
    expect(unreadable.stderr).toContain(`${join(cwd, "notes.txt")}: Cannot tell the transcript format`);
    // Looked up as a path and as a session id of the workspace: the message says both, and where the sessions are.
    expect(unreadable.stderr).toContain(
      `ctxkit inspect: missing.jsonl: neither a file (no ${join(cwd, "missing.jsonl")}) nor a session in ${join(cwd, ".ctxkit", "sessions")} (the sessions of --workspace or --data-dir); see 'ctxkit sessions list'.`,
    );
    expect(unreadable.stderr).toContain("no transcript could be read");
    expect((await runCli(["inspect"], { cwd })).code).toBe(2);
    const badFlag = await runCli(["inspect", "notes.txt", "--tokenizer", "bpe"], { cwd });
    expect(badFlag.code).toBe(2); // a flag's value: a usage error, as in ctxkit run
    expect(badFlag.stderr).toContain("--tokenizer must be one of qwen3, o200k, estimate");
  });

  // It said only "cannot read the file (ENOENT …)" for a session id that is in no store: it had been looked up as a session too.
  it("says a name that is neither a file nor a session was looked up as both, and where the sessions are", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-inspect-"));
    await writeFile(join(cwd, "requests.jsonl"), openAiLog());
    const id = "20260101-120000-abc123";
    const run = await runCli(["inspect", id, "requests.jsonl", "--data-dir", "store", "--tokenizer", "estimate", "--json"], { cwd });
    expect(run.code).toBe(0); // the file that exists is still inspected
    expect(run.stderr).toContain(`ctxkit inspect: ${id}: neither a file (no ${join(cwd, id)}) nor a session in ${join(cwd, "store", "sessions")} (the sessions of --workspace or --data-dir); see 'ctxkit sessions list'.`);
    expect((JSON.parse(run.stdout) as { problems: unknown[] }).problems).toContainEqual({ file: id, reason: expect.stringContaining("neither a file") });
    const path = await runCli(["inspect", "runs/x.jsonl"], { cwd });
    expect(path.code).toBe(1);
    expect(path.stderr).toContain(`ctxkit inspect: runs/x.jsonl: neither a file (no ${join(cwd, "runs", "x.jsonl")}) nor a session id (letters, digits, ".", "_" or "-").`);
    const view = await runCli(["view", id, "--no-open"], { cwd });
    expect(view.code).toBe(1);
    expect(view.stderr).toBe(`ctxkit view: ${id} is neither a file (no ${join(cwd, id)}) nor a session in ${join(cwd, ".ctxkit", "sessions")} (the sessions of --workspace or --data-dir); see 'ctxkit sessions list'.\n`);
  });

  const sweGemini = resolve("../shared/corpus/swe-gemini/astropy__astropy-12907.traj.json");
  it.skipIf(!existsSync(sweGemini))("inspects a real mini-swe-agent run with exact Qwen3 tokens", async () => {
    const run = await runCli(["inspect", sweGemini], { cwd: tmpdir(), timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("astropy__astropy-12907 — mini-swe-agent, google/gemini-3-pro-preview, 20 calls");
    expect(run.stdout).toContain("tokens: Qwen3 chat template, exact Qwen3 tokens");
    expect(run.stdout).toMatch(/provider reported \d+\.\d% cached \(193,081 of 258,532\)/);
    expect(run.stdout).toContain("tool_output_in_user_messages");
  });
});
