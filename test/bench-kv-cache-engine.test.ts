import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createTinyQwen3Gguf } from "../src/providers/llama/index.js";
import { runCli } from "./run-cli.js";

interface EngineModeJson {
  mode: string;
  calls: number;
  promptTokens: number;
  reusedTokens: number;
  reuseAsPredicted: number;
  ttftMs: { median: number | null; samples: number };
  offline: { promptTokens: number; reusablePrefixTokens: number; undeclaredBreaks: number };
}

const corpus = resolve("../shared/corpus");

describe.skipIf(!existsSync(join(corpus, "tau-bench")))("ctxkit bench kv-cache --live --engine on the embedded engine", () => {
  it("reports per mode the engine's reuse and TTFT next to the offline exact counts, which they match", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "ctxkit-kv-engine-")), "kv-cache-engine.json");
    const modelPath = await createTinyQwen3Gguf();
    const run = await runCli(["bench", "kv-cache", "--live", "--engine", "--model-path", modelPath, "--limit", "1", "--calls", "2", "--modes", "correct,dynamic_system", "--json", "--out", out], {
      cwd: process.cwd(),
      timeoutMs: 300_000,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { engine: string; callsPerDialogue: number; modes: EngineModeJson[]; target: { modelPath: string } };
    expect(report).toMatchObject({ engine: "llama", callsPerDialogue: 2, target: { modelPath } });
    const [correct, dynamicSystem] = report.modes;
    for (const mode of report.modes) {
      expect(mode.calls).toBe(2);
      // The engine renders and tokenizes exactly as the offline count does, and keeps exactly the common prefix.
      expect(mode.promptTokens).toBe(mode.offline.promptTokens);
      expect(mode.reusedTokens).toBe(mode.offline.reusablePrefixTokens);
      expect(mode.reuseAsPredicted).toBe(mode.calls);
      expect(mode.ttftMs.samples).toBe(1);
    }
    // Keeping the prefix lets the engine reuse the whole previous prompt; a clock in the system prompt loses nearly all of it.
    expect(correct!.reusedTokens).toBeGreaterThan(correct!.promptTokens / 3);
    expect(dynamicSystem!.reusedTokens).toBeLessThan(dynamicSystem!.promptTokens / 50);
    expect(dynamicSystem!.offline.undeclaredBreaks).toBe(1);
    expect(JSON.parse(await readFile(out, "utf8"))).toMatchObject({ benchmark: "kv-cache", live: true });
  }, 300_000);
});
