import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliRun } from "./run-cli.js";

interface Errors {
  charsOver4: number;
  balanced: number;
  matching: number;
}

interface CategoryJson {
  id: string;
  name: string;
  source: string;
  texts: number;
  characters: number;
  exact: { qwen3: number; o200k: number };
  estimated: { charsOver4: number; balanced: number; qwen3: number; o200k: number };
  error: { qwen3: Errors; o200k: Errors };
}

interface TokensJson {
  benchmark: string;
  categories: CategoryJson[];
  all: CategoryJson;
  throughput: Array<{ counter: string; countMs: number; megabytesPerSecond: number }>;
  target: { maxAbsError: number; met: boolean };
}

const corpus = resolve("../shared/corpus");
const seeds = resolve("../shared/seeds");
const hasChinese = existsSync(seeds) && readdirSync(seeds).some((name) => /^000_.*\.txt$/.test(name));

describe.skipIf(!existsSync(join(corpus, "tau-bench")) || !existsSync(join(corpus, "swe-gemini")))("ctxkit bench tokens on the corpus", () => {
  let run: CliRun;
  let out: string;
  beforeAll(async () => {
    out = join(await mkdtemp(join(tmpdir(), "ctxkit-bench-tokens-")), "tokens.json");
    // cwd is the repository, so the default --corpus (../shared/corpus) and --seeds are the ones used.
    run = await runCli(["bench", "tokens", "--limit", "2", "--fit", "--json", "--out", out], { cwd: process.cwd(), timeoutMs: 300_000 });
  }, 310_000);

  it("reports every category with exact counts and the error of each estimate, as JSON and in --out", async () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const both = JSON.parse(run.stdout) as { heldOut: TokensJson; fit: TokensJson; fitted: Record<string, Record<string, number>> };
    const report = both.heldOut;
    expect(both.fit.categories.map((category) => category.id)).toEqual(report.categories.map((category) => category.id));
    expect(Object.keys(both.fitted).sort()).toEqual(["balanced", "o200k", "qwen3"]);
    expect(both.fitted.qwen3!.shortWords).toBeGreaterThan(0.5);
    expect(report.benchmark).toBe("tokens");
    expect(report.categories.map((category) => category.id)).toEqual(["tau-dialogues", "tau-policies", "tool-schemas", "swe-gemini", ...(hasChinese ? ["chinese"] : [])]);
    expect(report.categories.find((category) => category.id === "swe-gemini")!.source).toMatch(/^2 of \d+ runs/);
    // --limit 2 reads two runs: one in each half.
    expect(report.categories.find((category) => category.id === "swe-gemini")!.texts).toBeLessThan(both.fit.categories.find((category) => category.id === "swe-gemini")!.texts + report.categories.find((category) => category.id === "swe-gemini")!.texts);
    for (const category of [...report.categories, report.all]) {
      expect(category.characters).toBeGreaterThan(0);
      expect(category.exact.qwen3).toBeGreaterThan(0);
      expect(category.exact.o200k).toBeGreaterThan(0);
      for (const tokenizer of ["qwen3", "o200k"] as const) {
        expect(category.error[tokenizer]).toEqual({ charsOver4: expect.any(Number), balanced: expect.any(Number), matching: expect.any(Number) });
        expect(category.error[tokenizer].matching).toBeCloseTo((category.estimated[tokenizer] - category.exact[tokenizer]) / category.exact[tokenizer], 12);
      }
    }
    expect(report.throughput.map((counter) => counter.counter)).toEqual(["qwen3 (exact)", "o200k (exact)", "estimate balanced", "estimate qwen3", "estimate o200k"]);
    for (const counter of report.throughput) expect(counter.megabytesPerSecond).toBeGreaterThan(0);
    expect(report.target).toMatchObject({ maxAbsError: 0.05, met: expect.any(Boolean) });
    expect(JSON.parse(await readFile(out, "utf8"))).toEqual(both);
  });

  it.skipIf(!hasChinese)("on Chinese, the balanced estimate is within 10% where chars/4 is off by more than 40%", () => {
    const chinese = (JSON.parse(run.stdout) as { heldOut: TokensJson }).heldOut.categories.find((category) => category.id === "chinese")!;
    for (const tokenizer of ["qwen3", "o200k"] as const) {
      expect(Math.abs(chinese.error[tokenizer].balanced)).toBeLessThan(0.1);
      expect(Math.abs(chinese.error[tokenizer].charsOver4)).toBeGreaterThan(0.4);
    }
  });
});

describe("ctxkit bench tokens", () => {
  it("skips with a clear message and exit 0 when the corpus is absent", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-tokens-"));
    const run = await runCli(["bench", "tokens", "--corpus", join(cwd, "nowhere")], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/skipped — no corpus under .*nowhere.*--corpus/);
    expect(existsSync(join(cwd, "bench-results"))).toBe(false);
  });
});
