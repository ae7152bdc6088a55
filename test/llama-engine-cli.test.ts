import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTinyQwen3Gguf } from "../src/providers/llama/index.js";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

interface ServingJson {
  engine: string;
  rows: Array<{ prefixTokens: number; ttftKeptMs: number; ttftChangedMs: number; reusedTokens: number; variants: Array<{ variant: string; reusedTokensMedian: number }> }>;
  concurrency: Array<{ concurrency: number; ttftKeptMedianMs: number }>;
  manifest: { benchmark: string; target: { kind: string } };
}

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const slow = 300_000;

describe("the embedded llama engine from the ctxkit command", () => {
  it("runs a task with --provider llama --model-path", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-llama-run-"));
    const modelPath = await createTinyQwen3Gguf();
    // A small context keeps the noise answer short: output is capped at what the window leaves
    // (so no task or notes tools either: their definitions would fill the rest of the 2,400 tokens).
    const run = await runCli(["run", "--provider", "llama", "--model-path", modelPath, "--tools", "read_file", "--no-sub-agents", "--notes", "off", "--context-window", "2400", "--max-iterations", "1", "--json", "Say hi"], { cwd: workspace, timeoutMs: slow });
    const end = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { type: string; usage: { inputTokens: number; outputTokens: number } };
    expect(end).toMatchObject({ type: "run_end" });
    expect(end.usage.inputTokens).toBeGreaterThan(500);
    expect(end.usage.outputTokens).toBeGreaterThan(0);
  }, slow);

  it("runs demo --engine: every call's engine reuse equals the predicted common prefix", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-llama-demo-"));
    const run = await runCli(["demo", "--engine", "--json", "--dir", join(workspace, "demo")], { cwd: workspace, timeoutMs: slow });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { calls: Array<{ predictedReuse: number; reusedTokens: number; evaluatedTokens: number; promptTokens: number }> };
    expect(report.calls).toHaveLength(4);
    for (const call of report.calls) {
      expect(call.reusedTokens).toBe(call.predictedReuse);
      expect(call.evaluatedTokens).toBe(call.promptTokens - call.reusedTokens);
    }
    expect(report.calls[1]!.reusedTokens).toBeGreaterThan(report.calls[0]!.promptTokens / 2);
  }, slow);

  it("bench serving runs offline on a generated model and writes JSON with a manifest", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-serving-"));
    // Outside the ctxkit project the JSON goes to the temporary folder (here one of the test's own).
    const run = await runCli(["bench", "serving", "--sizes", "256,512", "--runs", "1", "--json"], { cwd: workspace, env: { TMPDIR: workspace }, timeoutMs: slow });
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout) as ServingJson;
    expect(json.engine).toBe("llama");
    expect(json.manifest).toMatchObject({ benchmark: "serving", target: { kind: "embedded" } });
    expect(json.rows).toHaveLength(2);
    for (const row of json.rows) {
      // The kept call reuses the whole base prompt; a changed first token reuses almost nothing.
      expect(row.reusedTokens).toBe(row.prefixTokens);
      expect(row.variants.find((variant) => variant.variant === "first_token_changed")!.reusedTokensMedian).toBeLessThan(10);
      expect(row.ttftKeptMs).toBeGreaterThanOrEqual(0);
    }
    expect(JSON.parse(await readFile(join(workspace, "ctxkit-bench-results", "serving.json"), "utf8"))).toEqual(json);
  }, slow);

  it("bench serving --base-url measures a live OpenAI-compatible endpoint, with concurrency", async () => {
    server = await startOpenAIModelServer(() => "ok");
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-serving-live-"));
    const run = await runCli(["bench", "serving", "--base-url", server.baseURL, "--model", "scripted", "--api-key", "test", "--sizes", "256", "--runs", "1", "--concurrency", "1,4", "--json"], { cwd: workspace, timeoutMs: slow });
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout) as ServingJson;
    expect(json.engine).toMatch(/^openai-compatible/);
    expect(json.rows[0]!.reusedTokens).toBeGreaterThan(0);
    expect(json.concurrency.map((row) => row.concurrency)).toEqual([1, 4]);
    const bodies = server.requests.map((request) => JSON.parse(request.body) as { max_tokens?: number; stream?: boolean });
    expect(bodies.every((body) => body.stream === true)).toBe(true);
  }, slow);
});
