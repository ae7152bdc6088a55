import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

interface ModeJson {
  mode: string;
  calls: number;
  promptTokens: number;
  reusablePrefixTokens: number;
  uncachedTokens: number;
  reusableShare: number;
  cost: { anthropic: number; openai: number };
  undeclaredBreaks: number;
}

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const corpus = resolve("../shared/corpus");

describe.skipIf(!existsSync(join(corpus, "tau-bench")))("ctxkit bench kv-cache on the recorded τ-bench dialogues", () => {
  it("reports every mode as JSON, ranks the correct layout above shuffled tools and a dynamic system prompt, and writes --out", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "ctxkit-kv-cache-")), "kv-cache.json");
    // cwd is the repository, so the default --corpus (../shared/corpus) is the one used.
    const run = await runCli(["bench", "kv-cache", "--limit", "3", "--json", "--out", out], { cwd: process.cwd(), timeoutMs: 120_000 });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { modes: ModeJson[]; dialogues: number };
    expect(report.dialogues).toBe(3);
    expect(report.modes.map((mode) => mode.mode)).toEqual(["correct", "dynamic_system", "dynamic_profile", "shuffled_tools", "sliding_window", "text_format"]);
    for (const mode of report.modes) {
      expect(mode).toMatchObject({
        promptTokens: expect.any(Number),
        reusablePrefixTokens: expect.any(Number),
        uncachedTokens: mode.promptTokens - mode.reusablePrefixTokens,
        cost: { anthropic: expect.any(Number), openai: expect.any(Number) },
      });
      expect(mode.promptTokens).toBeGreaterThan(0);
    }
    const share = Object.fromEntries(report.modes.map((mode) => [mode.mode, mode.reusablePrefixTokens / mode.promptTokens]));
    expect(share.correct).toBeGreaterThan(share.shuffled_tools!);
    expect(share.correct).toBeGreaterThan(share.dynamic_system!);
    expect(JSON.parse(await readFile(out, "utf8"))).toEqual(report);
  });

  it("prints the table and where the JSON went", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-kv-cache-"));
    const run = await runCli(["bench", "kv-cache", "--limit", "1", "--modes", "correct,dynamic_system", "--corpus", corpus], { cwd, timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/mode\s+calls\s+prompt tokens\s+reusable share\s+uncached tokens\s+cost Anthropic\s+cost OpenAI\s+breaks@layer/);
    expect(run.stdout).toMatch(/^correct\s.*\snone$/m);
    expect(run.stdout).toMatch(/^dynamic_system\s.*\s\d+@system_static$/m);
    // Outside the ctxkit project the JSON goes to the system's temporary folder, not into the user's.
    expect(run.stdout).toMatch(/Wrote \S*ctxkit-bench-results\/kv-cache\.json/);
    expect(existsSync(join(tmpdir(), "ctxkit-bench-results", "kv-cache.json"))).toBe(true);
    expect(existsSync(join(cwd, "bench-results"))).toBe(false);
  });
});

describe("ctxkit bench kv-cache", () => {
  it("skips with a clear message and exit 0 when the corpus is absent", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-kv-cache-"));
    const run = await runCli(["bench", "kv-cache", "--corpus", join(cwd, "nowhere")], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/skipped — the τ-bench corpus is not under .*nowhere.*--corpus/);
  });

  it("rejects an unknown mode with the list of modes", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-kv-cache-"));
    const run = await runCli(["bench", "kv-cache", "--modes", "correct,cached"], { cwd });
    expect(run.code).toBe(2); // a flag's value: a usage error
    expect(run.stderr).toContain("Unknown mode 'cached' in --modes. Use any of: correct, dynamic_system");
  });

  it("--live streams each mode's requests and reports TTFT and the cached tokens the server reports", async () => {
    server = await startOpenAIModelServer(() => "ok");
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-kv-cache-live-"));
    await writeSmallCorpus(join(cwd, "corpus"));
    const run = await runCli(
      ["bench", "kv-cache", "--live", "--base-url", server.baseURL, "--model", "scripted", "--corpus", join(cwd, "corpus"), "--limit", "2", "--json"],
      { cwd, timeoutMs: 60_000 },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      live: boolean;
      model: string;
      modes: Array<{ mode: string; calls: number; errors: number; promptTokens: number; reportedCachedShare: number; ttftMs: { mean: number; median: number; samples: number } }>;
    };
    expect(report).toMatchObject({ live: true, model: "scripted", dialogues: 2 });
    expect(report.modes).toHaveLength(6);
    for (const mode of report.modes) {
      expect(mode).toMatchObject({ calls: 8, errors: 0, ttftMs: { mean: expect.any(Number), median: expect.any(Number), samples: 8 } });
      expect(mode.promptTokens).toBeGreaterThan(0);
    }
    const share = Object.fromEntries(report.modes.map((mode) => [mode.mode, mode.reportedCachedShare]));
    expect(share.correct).toBeGreaterThan(share.dynamic_system!);
    expect(server.requests).toHaveLength(6 * 8);
    expect(existsSync(join(tmpdir(), "ctxkit-bench-results", "kv-cache-live.json"))).toBe(true);
  });
});

/** A τ-bench-shaped corpus of two short dialogues, written for this test. */
async function writeSmallCorpus(root: string): Promise<void> {
  const policy = "# Airline Agent Policy\n\nAs an airline agent, you can help users book, modify, or cancel flight reservations.\n";
  const tools = ["get_reservation_details", "cancel_reservation"].map((name) => ({
    type: "function",
    function: { name, description: `The ${name} tool.`, parameters: { type: "object", properties: { reservation_id: { type: "string" } }, required: ["reservation_id"] } },
  }));
  const dialogue = (taskId: number, reservation: string) => ({
    task_id: taskId,
    trial: 0,
    reward: 1,
    info: {},
    traj: [
      { role: "system", content: policy },
      { role: "user", content: `Please cancel ${reservation}.` },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_reservation_details", arguments: `{"reservation_id": "${reservation}"}` } }] },
      { role: "tool", tool_call_id: "call_1", name: "get_reservation_details", content: `{"reservation_id": "${reservation}", "status": "active"}` },
      { role: "assistant", content: "Cancel it? (yes/no)" },
      { role: "user", content: "yes" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_2", type: "function", function: { name: "cancel_reservation", arguments: `{"reservation_id": "${reservation}"}` } }] },
      { role: "tool", tool_call_id: "call_2", name: "cancel_reservation", content: `{"reservation_id": "${reservation}", "status": "cancelled"}` },
      { role: "assistant", content: "Done." },
    ],
  });
  await mkdir(join(root, "tau-bench", "airline"), { recursive: true });
  await mkdir(join(root, "tau-bench", "trajectories"), { recursive: true });
  await writeFile(join(root, "tau-bench", "airline", "wiki.md"), policy);
  await writeFile(join(root, "tau-bench", "airline", "tools.json"), JSON.stringify(tools));
  await writeFile(join(root, "tau-bench", "trajectories", "gpt-4o-airline.json"), JSON.stringify([dialogue(1, "ABC123"), dialogue(2, "XYZ789")]));
}
