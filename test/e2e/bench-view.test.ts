import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../run-cli.js";
import { stripAnsi } from "../run-pty.js";

// `ctxkit bench view` times the built `ctxkit view` binary it starts (its start-up is what it
// measures), so it runs here, after the build. The benchmark itself runs in-process.
const corpus = resolve("../shared/corpus");
const hasSwe = existsSync(join(corpus, "swe-gemini"));
const smallest = ["view", "--corpus", corpus, "--calls", "4", "--context-tokens", "2000", "--tokenizers", "estimate"];

describe.skipIf(!hasSwe)("ctxkit bench view", { timeout: 600_000 }, () => {
  it("--json: timings per tokenizer (without a browser: the page timings are left out, as its help says)", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-json-"));
    const temporary = join(cwd, "tmp");
    await mkdir(temporary);
    const run = await runCli(["bench", ...smallest, "--repeat", "1", "--chromium", "/nonexistent/chromium", "--json"], { cwd, env: { TMPDIR: temporary }, timeoutMs: 400_000 });
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(existsSync(join(cwd, "bench-results")), "no bench-results/ outside the project").toBe(false);
    const written = JSON.parse(await readFile(join(temporary, "ctxkit-bench-results", "view-performance.json"), "utf8")) as unknown;
    expect(written).toEqual(printed);
    const help = (await runCli(["bench", "view", "--help"], { cwd })).stdout;
    expect(help).toContain("bench-results/view-performance.json");
    expect(help).toContain("bench-results/ when run inside the ctxkit project");
    expect(help).toContain("ctxkit-bench-results/ in the system's temporary folder");
    expect(help).toMatch(/Exit codes: 0 .*1 .*2 a usage error.*130/s);
    expect(run.stderr).toBe("");
    expect(printed).toMatchObject({ calls: 4, results: { estimate: { median: { serverReadyMs: expect.any(Number), timelineApiMs: expect.any(Number) } } } });
  });

  it("shows a progress bar on a terminal, and nothing when piped or with --json", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-progress-"));
    const args = ["bench", ...smallest, "--repeat", "2", "--chromium", "/nonexistent", "--out", join(cwd, "out.json")];
    const screen = (run: { stdout: string; stderr: string }) => stripAnsi(`${run.stdout}${run.stderr}`);
    const terminal = await runCli(args, { cwd, terminal: true, timeoutMs: 300_000 });
    expect(terminal.code).toBe(0);
    expect(screen(terminal)).toMatch(/view: openings \[[^\]]*\] \d\/2 \| \d+% \| ETA/);
    const piped = await runCli(args, { cwd, timeoutMs: 300_000 });
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain("view: openings");
    const json = await runCli([...args, "--json"], { cwd, terminal: true, timeoutMs: 300_000 });
    expect(json.code).toBe(0);
    expect(screen(json)).not.toContain("view: openings");
  });
});
