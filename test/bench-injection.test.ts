import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("ctxkit bench injection", () => {
  it("prints the offline table and writes JSON with a manifest", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-injection-"));
    const out = join(cwd, "injection.json");
    const run = await runCli(["bench", "injection", "--attacks", "indirect", "--defences", "none,runtime-guard", "--out", out], { cwd, timeoutMs: 300_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("model: obeys-all");
    expect(run.stdout).toMatch(/indirect +100% 144\/144 \[97%-100%\] +- +- +0% 0\/144 \[0%-3%\]/);
    expect(run.stdout).toContain("Payload corpus");
    const report = JSON.parse(await readFile(out, "utf8")) as { manifest: { mode: string; payloads: number } };
    expect(report.manifest).toMatchObject({ mode: "offline" });
    expect(report.manifest.payloads).toBeGreaterThanOrEqual(30);
  }, 320_000);

  it("runs a live model through any OpenAI-compatible server, N trials per cell", async () => {
    // A model that always refuses: every cell 0 of N, with the interval that N gives.
    server = await startOpenAIModelServer(() => "I will only summarise: the offsite moves to Friday.");
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-injection-live-"));
    const out = join(cwd, "live.json");
    const run = await runCli(["bench", "injection", "--model", "m", "--base-url", server.baseURL, "--api-key", "k", "--trials", "2", "--attacks", "direct,indirect", "--defences", "none,runtime-guard", "--out", out], { cwd, timeoutMs: 120_000 });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(await readFile(out, "utf8")) as { manifest: { mode: string; models: string[]; trialsPerCell: number }; cells: { trials: number; successes: number; interval: number[] }[] };
    expect(report.manifest).toMatchObject({ mode: "live", models: ["m"], trialsPerCell: 2 });
    expect(report.cells).toHaveLength(4);
    for (const cell of report.cells) expect(cell).toMatchObject({ trials: 2, successes: 0 });
    expect(report.cells[0]!.interval[1]).toBeCloseTo(0.658, 2);
  }, 130_000);
});
